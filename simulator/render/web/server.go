package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/coder/websocket"
)

//go:embed static
var staticFS embed.FS

// asset is one embedded file, served as is.
type asset struct {
	body []byte
	typ  string
	etag string
}

// loadAssets indexes the embedded files by their path under static/. The
// map is built once per viewer and only read afterwards.
func loadAssets() map[string]asset {
	out := map[string]asset{}
	_ = fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := staticFS.ReadFile(p)
		if err != nil {
			return err
		}
		typ := mime.TypeByExtension(path.Ext(p))
		if typ == "" {
			typ = "application/octet-stream"
		}
		sum := sha256.Sum256(b)
		out[strings.TrimPrefix(p, "static/")] = asset{body: b, typ: typ, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	return out
}

// ServeHTTP serves the page, its assets and the WebSocket. Every other
// path is 404: request paths are only compared with the names of the
// embedded files, never opened.
func (v *Viewer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !v.allowed(r) {
		http.Error(w, "the ARGoS viewer accepts connections from this machine only (start it with an explicit address to allow others)", http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'")
	switch p := r.URL.Path; {
	case p == "/ws":
		v.serveWS(w, r)
	case p == "/" || p == "/index.html":
		v.serveAsset(w, r, "index.html")
	case strings.HasPrefix(p, "/assets/"):
		v.serveAsset(w, r, strings.TrimPrefix(p, "/assets/"))
	default:
		http.NotFound(w, r)
	}
}

func (v *Viewer) serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	a, ok := v.assets[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.typ)
	h.Set("ETag", a.etag)
	h.Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == a.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if r.Method == http.MethodHead {
		return
	}
	w.Write(a.body)
}

// allowed tells whether a request may be served: from this machine, for
// a local host name (a page of another site that resolves its name to
// 127.0.0.1, DNS rebinding, is refused), unless the viewer was started on
// another interface on purpose.
func (v *Viewer) allowed(r *http.Request) bool {
	if v.remote {
		return true
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return false
	}
	return localHost(r.Host)
}

// localHost reports whether a Host header names this machine.
func localHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (v *Viewer) serveWS(w http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return // Accept wrote the error
	}
	conn.SetReadLimit(1 << 16)
	c := newClient(v, conn)
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		conn.Close(websocket.StatusGoingAway, "the run is over")
		return
	}
	v.clients[c] = struct{}{}
	// what was last shown, until the loop goroutine answers the hello
	if v.lastScene != nil {
		c.enqueue(v.lastScene)
	}
	if v.lastFrame != nil {
		c.offerFrame(v.lastFrame)
	}
	v.mu.Unlock()
	c.run()
	v.mu.Lock()
	delete(v.clients, c)
	v.mu.Unlock()
	if c.keyed.Load() {
		// release the keys the browser held (a closed tab sends no keyup)
		select {
		case v.cmds <- command{Cmd: "bye", c: c}:
		case <-time.After(time.Second):
		}
	}
}
