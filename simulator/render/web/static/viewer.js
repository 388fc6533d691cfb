// ARGoS-Go web viewer: draws the arena the simulator streams over a
// WebSocket, from above (canvas 2D) and in 3D (WebGL 2), and sends the
// user's commands back. No library, no build step.
(() => {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const S = {
    scene: null,       // static description: bodies, robots, lights, floor
    frame: null,       // newest poses, LEDs, spots, status
    overlay: null,     // proximity rays and RAB links, when asked
    inspect: null,     // the selected robot's details
    selected: "",      // selected robot id
    selectedObject: null, // selected non-robot body index
    view: "top",
    drag: null,        // {body, id, dx, dy, x, y, lastSent}
    override: null,    // {body, x, y} shown while dragging
    pan: null,
    floorCanvas: null,
    ws: null,
    drawn: 0,          // robots drawn in the last top view
    lastMoveAck: 0,
  };
  const top = $("top"), glc = $("gl");
  const ctx = top.getContext("2d");

  // ---------- connection ----------
  let retry = 500;
  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    S.ws = ws;
    ws.onopen = () => {
      retry = 500;
      $("conn").textContent = "connected";
      $("conn").className = "conn on";
      sendOverlay();
      if (S.selected) send({ cmd: "select", id: S.selected });
    };
    ws.onclose = () => {
      $("conn").textContent = "disconnected, retrying…";
      $("conn").className = "conn off";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      switch (m.t) {
        case "scene": onScene(m); break;
        case "frame":
          if (!S.scene || m.v !== S.scene.v) return;
          S.frame = m;
          if (S.override && !S.drag) S.override = null;
          onStatus();
          break;
        case "overlay": if (S.scene && m.v === S.scene.v) S.overlay = m; break;
        case "inspect": if (m.id === S.selected) { S.inspect = m; renderInspect(); } break;
        case "error": toast(m.message); break;
      }
      requestDraw();
    };
  }
  function send(obj) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(obj));
  }
  function sendOverlay() { send({ cmd: "overlay", rays: $("rays").checked, rab: $("rab").checked }); }

  function onScene(sc) {
    const first = !S.scene;
    S.scene = sc;
    S.frame = null;
    sc.slot = [];
    let m = 0;
    for (const b of sc.bodies) sc.slot.push(b.movable ? m++ : -1);
    S.overlay = null;
    $("experiment").textContent = sc.experiment || "";
    $("maxticks").textContent = sc.max_ticks > 0 ? " / " + sc.max_ticks : "";
    // robot list
    const sel = $("robot-select");
    const keep = S.selected;
    sel.length = 1;
    for (const r of sc.robots) {
      const o = document.createElement("option");
      o.value = o.textContent = r.id;
      sel.appendChild(o);
    }
    sel.value = keep;
    S.floorCanvas = null;
    if (sc.floor) {
      const f = sc.floor, raw = atob(f.data);
      const c = document.createElement("canvas");
      c.width = f.w; c.height = f.h;
      const cx = c.getContext("2d"), img = cx.createImageData(f.w, f.h);
      for (let i = 0, j = 0; i < f.w * f.h; i++) {
        img.data[4 * i] = raw.charCodeAt(j++);
        img.data[4 * i + 1] = raw.charCodeAt(j++);
        img.data[4 * i + 2] = raw.charCodeAt(j++);
        img.data[4 * i + 3] = 255;
      }
      cx.putImageData(img, 0, 0);
      S.floorCanvas = c;
    }
    if (first) {
      $("rays").checked = !!sc.rays_default;
      sendOverlay();
      fit();
      cam.preset("iso");
    }
    GL.floorDirty = true;
  }

  function onStatus() {
    const f = S.frame;
    $("tick").textContent = f.tick;
    $("time").textContent = f.time.toFixed(1);
    let st = f.finished ? "finished" : f.playing ? "playing" : "paused";
    if (!f.driven) st += " (watch only)";
    $("status").textContent = st;
    $("message").textContent = f.message || "";
    $("play").classList.toggle("on", f.playing);
    $("pause").classList.toggle("on", !f.playing);
    const sp = String(f.speed);
    if ($("speed").value !== sp && [...$("speed").options].some((o) => o.value === sp)) $("speed").value = sp;
  }

  let toastTimer = 0;
  function toast(msg) {
    const t = $("toast");
    t.textContent = msg;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => (t.hidden = true), 4000);
  }

  // ---------- geometry helpers ----------
  // pose of scene body k: [x, y, z, yaw]; static bodies' are in the
  // scene, the movable ones' in each frame
  function pose(k) {
    const b = S.scene.bodies[k];
    let ps;
    if (b.pose) ps = b.pose;
    else {
      const p = S.frame.p, m = 4 * S.scene.slot[k];
      ps = [p[m], p[m + 1], p[m + 2], p[m + 3]];
    }
    if (S.override && S.override.body === k) return [S.override.x, S.override.y, ps[2], ps[3]];
    return ps;
  }
  function contains(b, ps, x, y, pad) {
    const dx = x - ps[0], dy = y - ps[1];
    if (b.shape === "disc") return dx * dx + dy * dy <= (b.r + pad) * (b.r + pad);
    const c = Math.cos(ps[3]), s = Math.sin(ps[3]);
    const lx = dx * c + dy * s, ly = -dx * s + dy * c;
    return Math.abs(lx) <= b.hx + pad && Math.abs(ly) <= b.hy + pad;
  }
  // the body under a point of the floor: robots first, then movable
  // objects, then static ones
  function pick(x, y) {
    if (!S.scene || !S.frame) return -1;
    const bs = S.scene.bodies;
    for (const pass of [0, 1, 2]) {
      for (let k = bs.length - 1; k >= 0; k--) {
        const b = bs[k];
        const kind = b.robot >= 0 ? 0 : b.movable ? 1 : 2;
        if (kind !== pass) continue;
        if (contains(b, pose(k), x, y, pass === 0 ? 0.01 : 0)) return k;
      }
    }
    return -1;
  }
  const hex = (n) => "#" + n.toString(16).padStart(6, "0");
  // LED layout as in package frames: a ring, the foot-bot's beacon in the middle
  function ledLayout(type, n) {
    const out = [];
    let ring = n;
    if (type === "foot-bot" && n === 13) { ring = 12; out.push([12, 0, 0]); }
    for (let i = 0; i < ring; i++) {
      const a = (2 * Math.PI * (i + 0.5)) / ring;
      out.push([i, 0.75 * Math.cos(a), 0.75 * Math.sin(a)]);
    }
    return out;
  }
  // LEDs of each scene robot from the frame's flat list
  function leds() {
    const out = [], l = S.frame.l;
    for (let i = 0; i < l.length; ) {
      const n = l[i++];
      out.push(l.slice(i, i + n));
      i += n;
    }
    return out;
  }
  const robotColor = { "foot-bot": "#3d7ec9", "e-puck": "#3aa365", "eye-bot": "#9b59b6" };

  // ---------- top view ----------
  const view2 = { cx: 0, cy: 0, scale: 100 }; // pixels per metre
  function fit() {
    if (!S.scene) return;
    const r = top.getBoundingClientRect();
    const sz = S.scene.size;
    view2.cx = S.scene.center[0];
    view2.cy = S.scene.center[1];
    view2.scale = Math.max(5, 0.94 * Math.min(r.width / sz[0], r.height / sz[1]));
  }
  function w2s(x, y) {
    const r = top.getBoundingClientRect();
    return [r.width / 2 + (x - view2.cx) * view2.scale, r.height / 2 - (y - view2.cy) * view2.scale];
  }
  function s2w(sx, sy) {
    const r = top.getBoundingClientRect();
    return [view2.cx + (sx - r.width / 2) / view2.scale, view2.cy - (sy - r.height / 2) / view2.scale];
  }

  function resize(c) {
    const r = c.getBoundingClientRect(), d = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(r.width * d)), h = Math.max(1, Math.round(r.height * d));
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    return d;
  }

  function drawTop() {
    const d = resize(top);
    const r = top.getBoundingClientRect();
    ctx.setTransform(d, 0, 0, d, 0, 0);
    ctx.fillStyle = "#4a4f57";
    ctx.fillRect(0, 0, r.width, r.height);
    S.drawn = 0;
    if (!S.scene || !S.frame) return;
    const sc = S.scene, k2 = view2.scale;
    // world transform: metres, y up
    ctx.setTransform(d * k2, 0, 0, -d * k2, d * (r.width / 2 - view2.cx * k2), d * (r.height / 2 + view2.cy * k2));
    const lo = [sc.center[0] - sc.size[0] / 2, sc.center[1] - sc.size[1] / 2];
    if (S.floorCanvas) {
      ctx.save();
      ctx.translate(lo[0], lo[1] + sc.size[1]);
      ctx.scale(sc.size[0] / S.floorCanvas.width, -sc.size[1] / S.floorCanvas.height);
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(S.floorCanvas, 0, 0);
      ctx.restore();
    } else {
      ctx.fillStyle = "#fff";
      ctx.fillRect(lo[0], lo[1], sc.size[0], sc.size[1]);
    }
    // grid every half metre
    ctx.strokeStyle = "rgba(0,0,0,0.08)";
    ctx.lineWidth = 1 / k2;
    ctx.beginPath();
    for (let x = Math.ceil(lo[0] * 2) / 2; x <= lo[0] + sc.size[0]; x += 0.5) { ctx.moveTo(x, lo[1]); ctx.lineTo(x, lo[1] + sc.size[1]); }
    for (let y = Math.ceil(lo[1] * 2) / 2; y <= lo[1] + sc.size[1]; y += 0.5) { ctx.moveTo(lo[0], y); ctx.lineTo(lo[0] + sc.size[0], y); }
    ctx.stroke();
    const bodies = sc.bodies, L = leds();
    for (const pass of [0, 1, 2]) {
      for (let k = 0; k < bodies.length; k++) {
        const b = bodies[k];
        const kind = b.robot >= 0 ? 2 : b.movable ? 1 : 0;
        if (kind !== pass) continue;
        const ps = pose(k);
        ctx.save();
        ctx.translate(ps[0], ps[1]);
        ctx.rotate(ps[3]);
        ctx.lineWidth = 1.2 / k2;
        ctx.strokeStyle = "#22252a";
        if (kind === 2) {
          drawRobot(b, sc.robots[b.robot], L[b.robot] || [], k2);
          S.drawn++;
        } else {
          ctx.fillStyle = kind === 1 ? "#b07a45" : "#80868e";
          ctx.beginPath();
          if (b.shape === "disc") ctx.arc(0, 0, b.r, 0, 2 * Math.PI);
          else ctx.rect(-b.hx, -b.hy, 2 * b.hx, 2 * b.hy);
          ctx.fill();
          ctx.stroke();
        }
        const selected = (b.robot >= 0 && sc.robots[b.robot].id === S.selected) || S.selectedObject === k;
        if (selected) {
          ctx.strokeStyle = "#ffd400";
          ctx.lineWidth = 3 / k2;
          ctx.beginPath();
          if (b.shape === "disc") ctx.arc(0, 0, b.r + 4 / k2, 0, 2 * Math.PI);
          else ctx.rect(-b.hx - 4 / k2, -b.hy - 4 / k2, 2 * b.hx + 8 / k2, 2 * b.hy + 8 / k2);
          ctx.stroke();
        }
        ctx.restore();
      }
    }
    drawOverlay2(k2);
    const ol = S.frame.o || []; // LEDs on boxes and cylinders
    for (let i = 0; i + 3 < ol.length; i += 4) {
      ctx.fillStyle = hex(ol[i + 3]);
      ctx.strokeStyle = "#22252a";
      ctx.lineWidth = 1 / k2;
      ctx.beginPath();
      ctx.arc(ol[i], ol[i + 1], Math.max(0.015, 3 / k2), 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
    for (let i = 0; i + 4 < S.frame.s.length; i += 5) {
      const s = S.frame.s;
      ctx.fillStyle = hex(s[i + 4]);
      ctx.beginPath();
      ctx.arc(s[i], s[i + 1], Math.max(s[i + 3], 2 / k2), 0, 2 * Math.PI);
      ctx.fill();
    }
    for (const l of sc.lights) {
      ctx.fillStyle = l.color + "55";
      ctx.beginPath(); ctx.arc(l.p[0], l.p[1], 0.12, 0, 2 * Math.PI); ctx.fill();
      ctx.fillStyle = l.color;
      ctx.strokeStyle = "#22252a";
      ctx.lineWidth = 1 / k2;
      ctx.beginPath(); ctx.arc(l.p[0], l.p[1], 0.05, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    }
    // ids, in screen space
    if ($("labels").checked) {
      ctx.setTransform(d, 0, 0, d, 0, 0);
      ctx.font = "11px system-ui, sans-serif";
      ctx.fillStyle = "#111";
      ctx.textAlign = "center";
      for (const rb of sc.robots) {
        const b = bodies[rb.body];
        if (b.r * k2 < 9) continue;
        const ps = pose(rb.body), s = w2s(ps[0], ps[1]);
        ctx.fillText(rb.id, s[0], s[1] - b.r * k2 - 4);
      }
    }
  }

  function drawRobot(b, rb, ledList, k2) {
    ctx.fillStyle = robotColor[rb.type] || "#3d7ec9";
    ctx.beginPath();
    ctx.arc(0, 0, b.r, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = "#f5f5f5";
    ctx.beginPath();
    ctx.moveTo(b.r * 0.95, 0);
    ctx.lineTo(b.r * 0.2, b.r * 0.35);
    ctx.lineTo(b.r * 0.2, -b.r * 0.35);
    ctx.closePath();
    ctx.fill();
    for (const [i, x, y] of ledLayout(rb.type, ledList.length)) {
      const c = ledList[i];
      if (!c) continue;
      ctx.fillStyle = hex(c);
      ctx.beginPath();
      ctx.arc(x * b.r, y * b.r, Math.max(b.r * 0.16, 1.5 / k2), 0, 2 * Math.PI);
      ctx.fill();
      ctx.lineWidth = 0.8 / k2;
      ctx.stroke();
    }
  }

  function drawOverlay2(k2) {
    const o = S.overlay;
    if (!o) return;
    ctx.lineWidth = 1.5 / k2;
    if ($("rays").checked) {
      const r = o.rays;
      for (let i = 0; i < r.length; ) {
        const ri = r[i], n = r[i + 1];
        i += 2;
        const rb = S.scene.robots[ri];
        const b = S.scene.bodies[rb.body], ps = pose(rb.body);
        for (let j = 0; j < n; j++, i += 2) {
          const a = ps[3] + r[i], v = r[i + 1];
          const c = Math.cos(a), s = Math.sin(a);
          ctx.strokeStyle = v > 0 ? "rgba(220,30,30," + (0.35 + 0.65 * v) + ")" : "rgba(30,170,60,0.45)";
          ctx.beginPath();
          ctx.moveTo(ps[0] + c * b.r, ps[1] + s * b.r);
          ctx.lineTo(ps[0] + c * (b.r + rb.range), ps[1] + s * (b.r + rb.range));
          ctx.stroke();
        }
      }
    }
    if ($("rab").checked) {
      ctx.strokeStyle = "rgba(40,110,230,0.7)";
      ctx.beginPath();
      for (let i = 0; i + 3 < o.rab.length; i += 4) {
        ctx.moveTo(o.rab[i], o.rab[i + 1]);
        ctx.lineTo(o.rab[i + 2], o.rab[i + 3]);
      }
      ctx.stroke();
    }
  }

  // ---------- 3D view (WebGL 2) ----------
  const cam = {
    tx: 0, ty: 0, tz: 0, dist: 6, az: -Math.PI / 2, el: 0.9, fov: (45 * Math.PI) / 180, follow: false,
    preset(name) {
      if (!S.scene) return;
      const sz = S.scene.size, c = S.scene.center;
      this.tx = c[0]; this.ty = c[1]; this.tz = 0;
      this.dist = (0.62 * Math.max(sz[0], sz[1])) / Math.tan(this.fov / 2);
      this.follow = false;
      switch (name) {
        case "top": this.az = -Math.PI / 2; this.el = Math.PI / 2 - 0.001; break;
        case "front": this.az = -Math.PI / 2; this.el = 0.45; break;
        case "side": this.az = 0; this.el = 0.45; break;
        case "iso": this.az = -Math.PI / 4; this.el = 0.7; break;
      }
    },
    eye() {
      const ce = Math.cos(this.el);
      return [this.tx + this.dist * ce * Math.cos(this.az), this.ty + this.dist * ce * Math.sin(this.az), this.tz + this.dist * Math.sin(this.el)];
    },
    basis() {
      const e = this.eye();
      const f = norm([this.tx - e[0], this.ty - e[1], this.tz - e[2]]);
      let r = cross(f, [0, 0, 1]);
      if (Math.hypot(r[0], r[1], r[2]) < 1e-6) r = [1, 0, 0];
      r = norm(r);
      return { e, f, r, u: cross(r, f) };
    },
  };
  const norm = (v) => { const l = Math.hypot(v[0], v[1], v[2]) || 1; return [v[0] / l, v[1] / l, v[2] / l]; };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

  function viewProj(aspect) {
    const { e, f, r, u } = cam.basis();
    const near = 0.02, far = 500, t = 1 / Math.tan(cam.fov / 2);
    // view (column-major), then projection
    const V = [r[0], u[0], -f[0], 0, r[1], u[1], -f[1], 0, r[2], u[2], -f[2], 0, -dot(r, e), -dot(u, e), dot(f, e), 1];
    const P = [t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0, (2 * far * near) / (near - far), 0];
    const M = new Float32Array(16);
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++) {
        let s = 0;
        for (let k = 0; k < 4; k++) s += P[k * 4 + j] * V[i * 4 + k];
        M[i * 4 + j] = s;
      }
    return M;
  }
  // the point of the plane z = h under a pixel of the 3D canvas
  function rayToPlane(sx, sy, h) {
    const rc = glc.getBoundingClientRect();
    const nx = (2 * sx) / rc.width - 1, ny = 1 - (2 * sy) / rc.height;
    const { e, f, r, u } = cam.basis();
    const t = Math.tan(cam.fov / 2), a = rc.width / rc.height;
    const d = norm([0, 1, 2].map((i) => f[i] + r[i] * nx * t * a + u[i] * ny * t));
    if (Math.abs(d[2]) < 1e-6) return null;
    const k = (h - e[2]) / d[2];
    if (k < 0) return null;
    return [e[0] + k * d[0], e[1] + k * d[1]];
  }

  const GL = { gl: null, ok: false, floorDirty: true };
  function initGL() {
    const gl = glc.getContext("webgl2", { antialias: true });
    if (!gl) return false;
    GL.gl = gl;
    const mk = (vs, fs) => {
      const p = gl.createProgram();
      for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
        const s = gl.createShader(type);
        gl.shaderSource(s, src);
        gl.compileShader(s);
        if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
        gl.attachShader(p, s);
      }
      gl.linkProgram(p);
      if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
      return p;
    };
    GL.mesh = mk(`#version 300 es
      layout(location=0) in vec3 aPos; layout(location=1) in vec3 aNorm;
      layout(location=2) in vec4 iPose; layout(location=3) in vec3 iScale; layout(location=4) in vec4 iColor;
      uniform mat4 uVP; out vec3 vN; out vec4 vC;
      void main() {
        float c = cos(iPose.w), s = sin(iPose.w);
        vec3 p = aPos * iScale;
        vec3 w = vec3(c * p.x - s * p.y, s * p.x + c * p.y, p.z) + iPose.xyz;
        vN = vec3(c * aNorm.x - s * aNorm.y, s * aNorm.x + c * aNorm.y, aNorm.z);
        vC = iColor;
        gl_Position = uVP * vec4(w, 1.0);
      }`, `#version 300 es
      precision mediump float; in vec3 vN; in vec4 vC; out vec4 o;
      void main() {
        float d = max(dot(normalize(vN), normalize(vec3(0.4, -0.3, 0.85))), 0.0);
        o = vec4(vC.a > 0.5 ? vC.rgb : vC.rgb * (0.42 + 0.58 * d), 1.0);
      }`);
    GL.line = mk(`#version 300 es
      layout(location=0) in vec3 aPos; layout(location=1) in vec3 aCol; uniform mat4 uVP; out vec3 vC;
      void main() { vC = aCol; gl_Position = uVP * vec4(aPos, 1.0); }`, `#version 300 es
      precision mediump float; in vec3 vC; out vec4 o; void main() { o = vec4(vC, 1.0); }`);
    GL.tex = mk(`#version 300 es
      layout(location=0) in vec3 aPos; layout(location=1) in vec2 aUV; uniform mat4 uVP; out vec2 vUV;
      void main() { vUV = aUV; gl_Position = uVP * vec4(aPos, 1.0); }`, `#version 300 es
      precision mediump float; in vec2 vUV; uniform sampler2D uT; out vec4 o; void main() { o = texture(uT, vUV); }`);
    GL.meshes = { box: meshBox(), cyl: meshCylinder(24), sphere: meshSphere(8, 12) };
    for (const m of Object.values(GL.meshes)) {
      m.vao = gl.createVertexArray();
      gl.bindVertexArray(m.vao);
      const vb = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, vb);
      gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(m.data), gl.STATIC_DRAW);
      gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
      gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
      m.ib = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, m.ib);
      const st = 15 * 4;
      for (const [loc, n, off] of [[2, 4, 0], [3, 3, 16], [4, 4, 28]]) {
        gl.enableVertexAttribArray(loc);
        gl.vertexAttribPointer(loc, n, gl.FLOAT, false, st, off);
        gl.vertexAttribDivisor(loc, 1);
      }
      m.count = m.data.length / 6;
      gl.bindVertexArray(null);
    }
    GL.lineVAO = gl.createVertexArray();
    gl.bindVertexArray(GL.lineVAO);
    GL.lineBuf = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, GL.lineBuf);
    gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
    gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
    GL.floorVAO = gl.createVertexArray();
    gl.bindVertexArray(GL.floorVAO);
    GL.floorBuf = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, GL.floorBuf);
    gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 20, 0);
    gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 2, gl.FLOAT, false, 20, 12);
    gl.bindVertexArray(null);
    GL.floorTex = gl.createTexture();
    GL.ok = true;
    return true;
  }
  function meshBox() {
    const d = [];
    const faces = [
      [[1, 0, 0], [[1, -1, 0], [1, 1, 0], [1, 1, 1], [1, -1, 1]]],
      [[-1, 0, 0], [[-1, 1, 0], [-1, -1, 0], [-1, -1, 1], [-1, 1, 1]]],
      [[0, 1, 0], [[1, 1, 0], [-1, 1, 0], [-1, 1, 1], [1, 1, 1]]],
      [[0, -1, 0], [[-1, -1, 0], [1, -1, 0], [1, -1, 1], [-1, -1, 1]]],
      [[0, 0, 1], [[-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]]],
      [[0, 0, -1], [[-1, 1, 0], [1, 1, 0], [1, -1, 0], [-1, -1, 0]]],
    ];
    for (const [n, q] of faces) for (const i of [0, 1, 2, 0, 2, 3]) d.push(...q[i], ...n);
    return { data: d };
  }
  function meshCylinder(n) {
    const d = [];
    for (let i = 0; i < n; i++) {
      const a0 = (2 * Math.PI * i) / n, a1 = (2 * Math.PI * (i + 1)) / n;
      const c0 = Math.cos(a0), s0 = Math.sin(a0), c1 = Math.cos(a1), s1 = Math.sin(a1);
      d.push(c0, s0, 0, c0, s0, 0, c1, s1, 0, c1, s1, 0, c1, s1, 1, c1, s1, 0);
      d.push(c0, s0, 0, c0, s0, 0, c1, s1, 1, c1, s1, 0, c0, s0, 1, c0, s0, 0);
      d.push(0, 0, 1, 0, 0, 1, c0, s0, 1, 0, 0, 1, c1, s1, 1, 0, 0, 1);
      d.push(0, 0, 0, 0, 0, -1, c1, s1, 0, 0, 0, -1, c0, s0, 0, 0, 0, -1);
    }
    return { data: d };
  }
  function meshSphere(nl, nm) {
    const d = [];
    const pt = (i, j) => {
      const t = (Math.PI * i) / nl, p = (2 * Math.PI * j) / nm;
      return [Math.sin(t) * Math.cos(p), Math.sin(t) * Math.sin(p), Math.cos(t)];
    };
    for (let i = 0; i < nl; i++)
      for (let j = 0; j < nm; j++) {
        const a = pt(i, j), b = pt(i + 1, j), c = pt(i + 1, j + 1), e = pt(i, j + 1);
        for (const v of [a, b, c, a, c, e]) d.push(...v, ...v);
      }
    return { data: d };
  }
  const rgb = (n) => [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
  const css = (s) => rgb(parseInt(s.slice(1), 16));

  function drawGL() {
    if (!GL.ok && !initGL()) {
      toast("This browser has no WebGL 2: showing the top view");
      setView("top");
      return;
    }
    const gl = GL.gl;
    const d = resize(glc);
    gl.viewport(0, 0, glc.width, glc.height);
    gl.clearColor(0.29, 0.31, 0.34, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    if (!S.scene || !S.frame) return;
    gl.enable(gl.DEPTH_TEST);
    const sc = S.scene;
    if (cam.follow && S.selected) {
      const rb = sc.robots.find((r) => r.id === S.selected);
      if (rb) { const ps = pose(rb.body); cam.tx = ps[0]; cam.ty = ps[1]; }
    }
    const VP = viewProj(glc.width / glc.height);
    // floor
    const lo = [sc.center[0] - sc.size[0] / 2, sc.center[1] - sc.size[1] / 2], hi = [lo[0] + sc.size[0], lo[1] + sc.size[1]];
    if (GL.floorDirty) {
      gl.bindTexture(gl.TEXTURE_2D, GL.floorTex);
      gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, true);
      if (S.floorCanvas) gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, S.floorCanvas);
      else gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array([255, 255, 255, 255]));
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      gl.bindBuffer(gl.ARRAY_BUFFER, GL.floorBuf);
      gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([
        lo[0], lo[1], 0, 0, 0, hi[0], lo[1], 0, 1, 0, hi[0], hi[1], 0, 1, 1,
        lo[0], lo[1], 0, 0, 0, hi[0], hi[1], 0, 1, 1, lo[0], hi[1], 0, 0, 1]), gl.STATIC_DRAW);
      GL.floorDirty = false;
    }
    gl.useProgram(GL.tex);
    gl.uniformMatrix4fv(gl.getUniformLocation(GL.tex, "uVP"), false, VP);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, GL.floorTex);
    gl.uniform1i(gl.getUniformLocation(GL.tex, "uT"), 0);
    gl.bindVertexArray(GL.floorVAO);
    gl.enable(gl.POLYGON_OFFSET_FILL);
    gl.polygonOffset(1, 1);
    gl.drawArrays(gl.TRIANGLES, 0, 6);
    gl.disable(gl.POLYGON_OFFSET_FILL);

    // instances: pose(4) scale(3) colour(4)
    const inst = { box: [], cyl: [], sphere: [] };
    const add = (m, x, y, z, yaw, sx, sy, sz, c, emissive) => inst[m].push(x, y, z, yaw, sx, sy, sz, c[0], c[1], c[2], emissive ? 1 : 0, 0, 0, 0, 0);
    const L = leds();
    for (let k = 0; k < sc.bodies.length; k++) {
      const b = sc.bodies[k], ps = pose(k);
      const m = b.shape === "disc" ? "cyl" : "box";
      const sx = b.shape === "disc" ? b.r : b.hx, sy = b.shape === "disc" ? b.r : b.hy;
      if (b.robot < 0) {
        add(m, ps[0], ps[1], ps[2], ps[3], sx, sy, b.h, b.movable ? [0.69, 0.48, 0.27] : [0.55, 0.57, 0.6]);
      } else {
        const rb = sc.robots[b.robot];
        const bodyH = b.h * 0.8;
        add("cyl", ps[0], ps[1], ps[2], ps[3], b.r, b.r, bodyH, css(robotColor[rb.type] || "#3d7ec9"));
        const c = Math.cos(ps[3]), s = Math.sin(ps[3]);
        add("box", ps[0] + c * b.r * 0.55, ps[1] + s * b.r * 0.55, ps[2] + bodyH, ps[3], b.r * 0.4, b.r * 0.07, 0.004, [0.96, 0.96, 0.96]);
        const ll = L[b.robot] || [];
        for (const [i, x, y] of ledLayout(rb.type, ll.length)) {
          const col = ll[i];
          const lx = x * b.r, ly = y * b.r;
          add("sphere", ps[0] + c * lx - s * ly, ps[1] + s * lx + c * ly, ps[2] + bodyH + (i === 12 && ll.length === 13 ? 0.03 : 0.005),
            0, b.r * 0.11, b.r * 0.11, b.r * 0.11, col ? rgb(col) : [0.1, 0.1, 0.1], !!col);
        }
        if (rb.id === S.selected) add("cyl", ps[0], ps[1], ps[2], 0, b.r * 1.25, b.r * 1.25, 0.003, [1, 0.83, 0], true);
      }
      if (S.selectedObject === k && b.robot < 0) add(m, ps[0], ps[1], ps[2], ps[3], sx * 1.08 + 0.01, sy * 1.08 + 0.01, 0.003, [1, 0.83, 0], true);
    }
    for (const l of sc.lights) add("sphere", l.p[0], l.p[1], l.p[2], 0, 0.04, 0.04, 0.04, css(l.color), true);
    const ol = S.frame.o || [];
    for (let i = 0; i + 3 < ol.length; i += 4) add("sphere", ol[i], ol[i + 1], ol[i + 2], 0, 0.015, 0.015, 0.015, rgb(ol[i + 3]), true);
    const sp = S.frame.s;
    for (let i = 0; i + 4 < sp.length; i += 5) add("cyl", sp[i], sp[i + 1], sp[i + 2] + 0.001, 0, sp[i + 3], sp[i + 3], 0.002, rgb(sp[i + 4]), true);
    gl.useProgram(GL.mesh);
    gl.uniformMatrix4fv(gl.getUniformLocation(GL.mesh, "uVP"), false, VP);
    for (const [name, list] of Object.entries(inst)) {
      if (!list.length) continue;
      const m = GL.meshes[name];
      gl.bindVertexArray(m.vao);
      gl.bindBuffer(gl.ARRAY_BUFFER, m.ib);
      gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(list), gl.DYNAMIC_DRAW);
      gl.drawArraysInstanced(gl.TRIANGLES, 0, m.count, list.length / 15);
    }
    // lines: grid, rays, links
    const ln = [];
    const seg = (a, b, c) => ln.push(a[0], a[1], a[2], ...c, b[0], b[1], b[2], ...c);
    for (let x = Math.ceil(lo[0] * 2) / 2; x <= hi[0]; x += 0.5) seg([x, lo[1], 0.001], [x, hi[1], 0.001], [0.8, 0.8, 0.8]);
    for (let y = Math.ceil(lo[1] * 2) / 2; y <= hi[1]; y += 0.5) seg([lo[0], y, 0.001], [hi[0], y, 0.001], [0.8, 0.8, 0.8]);
    const o = S.overlay;
    if (o && $("rays").checked) {
      const r = o.rays;
      for (let i = 0; i < r.length; ) {
        const ri = r[i], n = r[i + 1];
        i += 2;
        const rb = sc.robots[ri], b = sc.bodies[rb.body], ps = pose(rb.body);
        for (let j = 0; j < n; j++, i += 2) {
          const a = ps[3] + r[i], v = r[i + 1], c = Math.cos(a), s = Math.sin(a), z = ps[2] + 0.06;
          seg([ps[0] + c * b.r, ps[1] + s * b.r, z], [ps[0] + c * (b.r + rb.range), ps[1] + s * (b.r + rb.range), z], v > 0 ? [0.9, 0.1, 0.1] : [0.1, 0.7, 0.25]);
        }
      }
    }
    if (o && $("rab").checked)
      for (let i = 0; i + 3 < o.rab.length; i += 4) seg([o.rab[i], o.rab[i + 1], 0.1], [o.rab[i + 2], o.rab[i + 3], 0.1], [0.15, 0.45, 0.95]);
    gl.useProgram(GL.line);
    gl.uniformMatrix4fv(gl.getUniformLocation(GL.line, "uVP"), false, VP);
    gl.bindVertexArray(GL.lineVAO);
    gl.bindBuffer(gl.ARRAY_BUFFER, GL.lineBuf);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(ln), gl.DYNAMIC_DRAW);
    gl.drawArrays(gl.LINES, 0, ln.length / 6);
    gl.bindVertexArray(null);
    S.drawn = sc.robots.length;
    void d;
  }

  // ---------- drawing loop ----------
  let pending = false;
  function requestDraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      if (S.view === "top") drawTop(); else drawGL();
    });
  }
  window.addEventListener("resize", requestDraw);

  // ---------- inspector ----------
  function fmt(v) {
    if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(3);
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (v === null || v === undefined) return "–";
    if (Array.isArray(v)) return v.map(fmt).join(" ");
    if (typeof v === "object") return Object.entries(v).map(([k, x]) => k + ": " + fmt(x)).join(", ");
    return String(v);
  }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function table(rows) {
    const t = el("table");
    for (const [k, v] of rows) {
      const tr = el("tr");
      tr.appendChild(el("td", "", k));
      const td = el("td");
      if (v instanceof Node) td.appendChild(v); else td.textContent = v;
      tr.appendChild(td);
      t.appendChild(tr);
    }
    return t;
  }
  function renderInspect() {
    const box = $("inspect");
    box.textContent = "";
    const m = S.inspect;
    if (S.selectedObject !== null && S.scene && S.frame) {
      const b = S.scene.bodies[S.selectedObject], ps = pose(S.selectedObject);
      box.appendChild(el("h3", "", b.id)).appendChild(el("small", "", " " + b.type + (b.movable ? " (movable)" : " (static)")));
      box.appendChild(table([["x, y, z (m)", [ps[0], ps[1], ps[2]].map((x) => x.toFixed(3)).join(", ")], ["yaw (°)", ((ps[3] * 180) / Math.PI).toFixed(1)]]));
      return;
    }
    if (!m || !S.selected) return;
    if (!m.found) { box.appendChild(el("p", "", "no robot " + m.id)); return; }
    const h = box.appendChild(el("h3", "", m.id));
    h.appendChild(el("small", "", " " + m.type));
    const swatches = el("span");
    for (const c of m.leds) { const s = el("span", "swatch"); s.style.background = c; s.title = c; swatches.appendChild(s); }
    box.appendChild(table([
      ["controller", m.controller + " (" + m.label + ")"],
      ["x, y, z (m)", m.pose.slice(0, 3).map((x) => x.toFixed(3)).join(", ")],
      ["yaw (°)", m.pose[3].toFixed(1)],
      ["wheels (m/s)", m.wheels_m_s.map((x) => x.toFixed(3)).join(", ")],
      ["LEDs", m.leds.length ? swatches : "–"],
    ]));
    for (const d of m.devices) {
      const sec = el("section", "device");
      sec.dataset.tag = d.tag;
      sec.dataset.kind = d.kind;
      const h4 = sec.appendChild(el("h4", "", d.tag));
      h4.appendChild(el("small", "", " " + d.kind));
      const v = d.value;
      if (v && Array.isArray(v.values)) {
        const bars = sec.appendChild(el("div", "bars"));
        for (const x of v.values) { const b = el("div"); b.style.height = Math.max(0, Math.min(1, x)) * 100 + "%"; bars.appendChild(b); }
        sec.appendChild(el("div", "values", v.values.map((x) => x.toFixed(3)).join(" ")));
        const rest = Object.entries(v).filter(([k]) => k !== "values" && k !== "angles_deg");
        if (rest.length) sec.appendChild(table(rest.map(([k, x]) => [k, fmt(x)])));
      } else if (v && typeof v === "object" && !Array.isArray(v)) {
        sec.appendChild(table(Object.entries(v).map(([k, x]) => [k, fmt(x)])));
      } else if (v === null) {
        sec.appendChild(el("div", "hint", d.type + " (no inspector)"));
      } else {
        sec.appendChild(el("div", "values", fmt(v)));
      }
      box.appendChild(sec);
    }
  }
  function select(id) {
    S.selected = id;
    S.selectedObject = null;
    S.inspect = null;
    $("robot-select").value = id;
    send({ cmd: "select", id });
    renderInspect();
    requestDraw();
  }

  // ---------- mouse ----------
  function floorPoint(ev) {
    const c = S.view === "top" ? top : glc;
    const r = c.getBoundingClientRect();
    const sx = ev.clientX - r.left, sy = ev.clientY - r.top;
    if (S.view === "top") return s2w(sx, sy);
    return rayToPlane(sx, sy, 0.07);
  }
  function onDown(ev) {
    if (!S.scene || !S.frame) return;
    ev.preventDefault();
    const p = floorPoint(ev);
    const k = p && ev.button === 0 ? pick(p[0], p[1]) : -1;
    if (k >= 0) {
      const b = S.scene.bodies[k];
      if (b.robot >= 0) select(S.scene.robots[b.robot].id);
      else { S.selected = ""; S.inspect = null; send({ cmd: "select", id: "" }); S.selectedObject = k; $("robot-select").value = ""; renderInspect(); }
      if (b.movable) {
        const ps = pose(k);
        S.drag = { body: k, id: b.id, dx: ps[0] - p[0], dy: ps[1] - p[1], lastSent: 0, moved: false };
      }
      requestDraw();
      return;
    }
    S.pan = { x: ev.clientX, y: ev.clientY, button: ev.button, cx: view2.cx, cy: view2.cy, az: cam.az, el: cam.el, tx: cam.tx, ty: cam.ty, moved: false };
  }
  function onMove(ev) {
    if (S.drag) {
      const p = floorPoint(ev);
      if (!p) return;
      const x = p[0] + S.drag.dx, y = p[1] + S.drag.dy;
      S.override = { body: S.drag.body, x, y };
      S.drag.moved = true;
      const now = performance.now();
      if (now - S.drag.lastSent > 50) { S.drag.lastSent = now; send({ cmd: "move", id: S.drag.id, x, y }); }
      requestDraw();
      return;
    }
    if (!S.pan) return;
    const dx = ev.clientX - S.pan.x, dy = ev.clientY - S.pan.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) S.pan.moved = true;
    if (S.view === "top") {
      view2.cx = S.pan.cx - dx / view2.scale;
      view2.cy = S.pan.cy + dy / view2.scale;
    } else if (S.pan.button === 0) {
      cam.az = S.pan.az - dx * 0.008;
      cam.el = Math.max(0.05, Math.min(Math.PI / 2 - 0.001, S.pan.el + dy * 0.008));
    } else {
      const k = cam.dist * 0.0015, c = Math.cos(cam.az), s = Math.sin(cam.az);
      cam.tx = S.pan.tx + (dx * s - dy * c) * k;
      cam.ty = S.pan.ty + (-dx * c - dy * s) * k;
      cam.follow = false;
    }
    requestDraw();
  }
  function onUp(ev) {
    if (S.drag) {
      if (S.drag.moved) {
        const p = floorPoint(ev);
        if (p) {
          const x = p[0] + S.drag.dx, y = p[1] + S.drag.dy;
          S.override = { body: S.drag.body, x, y };
          send({ cmd: "move", id: S.drag.id, x, y });
        }
      }
      S.drag = null;
    } else if (S.pan && !S.pan.moved && S.pan.button === 0) {
      // a click on the floor clears the selection
      S.selected = ""; S.selectedObject = null; S.inspect = null;
      $("robot-select").value = "";
      send({ cmd: "select", id: "" });
      renderInspect();
    }
    S.pan = null;
    requestDraw();
  }
  function onWheel(ev) {
    ev.preventDefault();
    const f = Math.exp(-ev.deltaY * 0.0015);
    if (S.view === "top") {
      const r = top.getBoundingClientRect();
      const before = s2w(ev.clientX - r.left, ev.clientY - r.top);
      view2.scale = Math.min(5000, Math.max(2, view2.scale * f));
      const after = s2w(ev.clientX - r.left, ev.clientY - r.top);
      view2.cx += before[0] - after[0];
      view2.cy += before[1] - after[1];
    } else {
      cam.dist = Math.min(500, Math.max(0.2, cam.dist / f));
    }
    requestDraw();
  }
  for (const c of [top, glc]) {
    c.addEventListener("mousedown", onDown);
    c.addEventListener("wheel", onWheel, { passive: false });
    c.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  window.addEventListener("mousemove", onMove);
  window.addEventListener("mouseup", onUp);

  // ---------- controls ----------
  function setView(v) {
    S.view = v;
    top.hidden = v !== "top";
    glc.hidden = v === "top";
    $("view-top").classList.toggle("on", v === "top");
    $("view-3d").classList.toggle("on", v !== "top");
    requestDraw();
  }
  $("play").onclick = () => send({ cmd: "play" });
  $("pause").onclick = () => send({ cmd: "pause" });
  $("step").onclick = () => send({ cmd: "step" });
  $("reset").onclick = () => send({ cmd: "reset" });
  $("speed").onchange = () => send({ cmd: "speed", value: parseFloat($("speed").value) });
  $("view-top").onclick = () => { setView("top"); };
  $("view-3d").onclick = () => { setView("3d"); };
  $("cam-fit").onclick = () => { if (S.view === "top") fit(); else cam.preset("top"); requestDraw(); };
  for (const p of ["front", "side", "iso"]) $("cam-" + p).onclick = () => { if (S.view === "top") setView("3d"); cam.preset(p); requestDraw(); };
  $("cam-follow").onclick = () => {
    if (!S.selected) { toast("select a robot to follow"); return; }
    if (S.view === "top") {
      const rb = S.scene.robots.find((r) => r.id === S.selected);
      if (rb) { const ps = pose(rb.body); view2.cx = ps[0]; view2.cy = ps[1]; view2.scale = Math.max(view2.scale, 400); }
    } else {
      cam.follow = true;
      cam.dist = 1.2;
      cam.el = 0.6;
    }
    requestDraw();
  };
  $("rays").onchange = () => { sendOverlay(); requestDraw(); };
  $("rab").onchange = () => { sendOverlay(); requestDraw(); };
  $("labels").onchange = requestDraw;
  $("robot-select").onchange = () => select($("robot-select").value);
  window.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    if (ev.key === " ") { ev.preventDefault(); send({ cmd: S.frame && S.frame.playing ? "pause" : "play" }); }
    else if (ev.key === "n") send({ cmd: "step" });
    else if (ev.key === "r") send({ cmd: "reset" });
  });

  // for tests and curious users: where a point of the arena is on the page
  window.argosViewer = {
    state: S,
    worldToPage(x, y) {
      if (S.view === "top") {
        const r = top.getBoundingClientRect(), s = w2s(x, y);
        return { x: r.left + s[0], y: r.top + s[1] };
      }
      return null;
    },
    robotsDrawn: () => S.drawn,
    glReady: () => GL.ok,
  };
  connect();
})();
