// ARGoS-Go web viewer: draws the arena the simulator streams over a
// WebSocket, from above (canvas 2D) and in 3D (WebGL 2), and sends the
// user's commands back. No library, no build step. The binary frames are
// described in frame.go.
(() => {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const S = {
    scene: null,       // static description: bodies, robots, lights, floor, cameras
    F: null,           // the moving state, kept up to date by the frames
    overlay: null,     // proximity rays and RAB links, when asked
    inspect: null,     // the selected robot's details
    selected: "",      // selected robot id
    selectedObject: null, // selected non-robot body index
    view: "top",
    drag: null,        // {body, id, mode: "move"|"turn", dx, dy, x, y, yaw, moved, ok}
    override: null,    // {body, x, y, yaw, ok} shown while dragging and until the next frame
    pan: null,
    floorCanvas: null,
    ws: null,
    drawn: 0,          // robots drawn in the last view
    lastFull: null,    // the last full frame, for the benchmark
    checkSeq: 0,
    keys: new Map(),   // held keys: KeyboardEvent.code -> key sent
  };
  const top = $("top"), glc = $("gl"), lab = $("gl-labels");
  const ctx = top.getContext("2d");
  const lctx = lab.getContext("2d");

  // ---------- connection ----------
  let retry = 500;
  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    ws.binaryType = "arraybuffer";
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
      S.F = null;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    };
    ws.onmessage = onMessage;
  }
  function onMessage(ev) {
    if (ev.data instanceof ArrayBuffer) {
      if (decodeFrame(ev.data)) {
        if (S.override && !S.drag && S.override.sent) S.override = null;
        onStatus();
        if (S.selectedObject !== null) renderInspect();
      }
      requestDraw();
      return;
    }
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    switch (m.t) {
      case "scene": onScene(m); break;
      case "overlay": if (S.scene && m.v === S.scene.v) S.overlay = m; break;
      case "inspect": if (m.id === S.selected) { S.inspect = m; renderInspect(); } break;
      case "check": onCheck(m); break;
      case "error": toast(m.message); if (S.override && !S.drag) S.override = null; break;
    }
    requestDraw();
  }
  function send(obj) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(obj));
  }
  function sendOverlay() { send({ cmd: "overlay", rays: $("rays").checked, rab: $("rab").checked }); }

  // ---------- frames ----------
  function newState(sc) {
    const M = sc.slot.movable, R = sc.robots.length;
    return {
      tick: 0, playing: false, finished: false, driven: false, speed: 1, message: "",
      qxy: new Uint16Array(2 * M), qyaw: new Uint16Array(M), qz: new Uint16Array(M),
      pose: new Float32Array(4 * M),           // x, y, z, yaw per movable body
      leds: new Array(R).fill(null),           // per robot: 0xRRGGBB, 0 for off; null: all off (ledsOf)
      lit: new Int32Array(R).fill(-1),         // per robot: its first lit LED's colour, -1 for none
      spots: [], objLEDs: [], drawing: null, hasDrawing: false,
    };
  }
  const td = new TextDecoder();
  // decodeFrame applies a binary frame to S.F; false for a frame of
  // another scene (one that arrived before its scene)
  function decodeFrame(buf, into) {
    const sc = S.scene;
    if (!sc) return false;
    const dv = new DataView(buf), u8 = new Uint8Array(buf);
    if (u8[0] !== 70 || u8[1] !== 1) return false;
    const flags = u8[2], sec = u8[3];
    if (dv.getUint32(4, true) !== sc.v) return false;
    const M = dv.getUint32(18 + dv.getUint16(16, true), true);
    if (M !== sc.slot.movable) return false;
    let F = into || S.F;
    if (flags & 8) {
      if (!into) S.lastFull = buf;
      if (!F || into) F = newState(sc);
      else { F.qxy.fill(0); F.qyaw.fill(0); F.qz.fill(0); F.leds.fill(null); F.lit.fill(-1); F.drawing = null; }
    } else if (!F) return false;
    F.playing = !!(flags & 1); F.finished = !!(flags & 2); F.driven = !!(flags & 4);
    F.tick = dv.getUint32(8, true);
    F.speed = dv.getFloat32(12, true);
    const ml = dv.getUint16(16, true);
    F.message = ml ? td.decode(u8.subarray(18, 18 + ml)) : "";
    let o = 18 + ml + 4;
    const R = dv.getUint32(o, true); o += 4;
    const q = sc.quant, qxy = F.qxy, qyaw = F.qyaw, qz = F.qz;
    if (sec & 1) {
      const c0 = o; o += (M + 3) >> 2;
      for (let i = 0; i < M; i++) {
        const code = (u8[c0 + (i >> 2)] >> ((i & 3) << 1)) & 3;
        if (code === 1) { qxy[2 * i] += dv.getInt8(o); qxy[2 * i + 1] += dv.getInt8(o + 1); o += 2; }
        else if (code === 2) { qxy[2 * i] = dv.getUint16(o, true); qxy[2 * i + 1] = dv.getUint16(o + 2, true); o += 4; }
      }
    }
    for (const [bit, arr] of [[2, qyaw], [4, qz]]) {
      if (!(sec & bit)) continue;
      const c0 = o; o += (M + 3) >> 2;
      for (let i = 0; i < M; i++) {
        const code = (u8[c0 + (i >> 2)] >> ((i & 3) << 1)) & 3;
        if (code === 1) { arr[i] += dv.getInt8(o); o += 1; }
        else if (code === 2) { arr[i] = dv.getUint16(o, true); o += 2; }
      }
    }
    const P = F.pose, kx = q[2] / 65535, ky = q[3] / 65535, kz = q[4] / 65535, ka = (2 * Math.PI) / 65536;
    for (let i = 0; i < M; i++) {
      P[4 * i] = q[0] + kx * qxy[2 * i];
      P[4 * i + 1] = q[1] + ky * qxy[2 * i + 1];
      P[4 * i + 2] = kz * qz[i];
      P[4 * i + 3] = ka * qyaw[i];
    }
    if (sec & 8) {
      const m0 = o; o += (R + 7) >> 3;
      const np = u8[o++], pal = new Array(np);
      for (let i = 0; i < np; i++, o += 3) pal[i] = (u8[o] << 16) | (u8[o + 1] << 8) | u8[o + 2];
      const color = () => {
        const i = u8[o++];
        if (i !== 255) return pal[i];
        const c = (u8[o] << 16) | (u8[o + 1] << 8) | u8[o + 2];
        o += 3;
        return c;
      };
      for (let k = 0; k < R; k++) {
        if (!(u8[m0 + (k >> 3)] & (1 << (k & 7)))) continue;
        const h = u8[o++], n = h & 127, l = new Array(n);
        if (h & 128) { const c = color(); l.fill(c); } else for (let i = 0; i < n; i++) l[i] = color();
        F.leds[k] = l;
        let lit = -1;
        for (const c of l) if (c !== 0) { lit = c; break; }
        F.lit[k] = lit;
      }
    }
    let n = dv.getUint16(o, true); o += 2;
    F.spots = [];
    for (let i = 0; i < n; i++, o += 19)
      F.spots.push([dv.getFloat32(o, true), dv.getFloat32(o + 4, true), dv.getFloat32(o + 8, true), dv.getFloat32(o + 12, true), (u8[o + 16] << 16) | (u8[o + 17] << 8) | u8[o + 18]]);
    n = dv.getUint16(o, true); o += 2;
    F.objLEDs = [];
    for (let i = 0; i < n; i++, o += 15)
      F.objLEDs.push([dv.getFloat32(o, true), dv.getFloat32(o + 4, true), dv.getFloat32(o + 8, true), (u8[o + 12] << 16) | (u8[o + 13] << 8) | u8[o + 14]]);
    F.hasDrawing = !!(flags & 16);
    if (!F.hasDrawing) F.drawing = null;
    else if (!(flags & 32)) {
      const len = dv.getUint32(o, true); o += 4;
      F.drawing = decodeDrawing(dv, u8, o, len);
      o += len;
    }
    if (!into) S.F = F;
    return true;
  }
  // the user functions' drawing (decodeDrawing in decode.go)
  function decodeDrawing(dv, u8, o, len) {
    const end = o + len, items = [];
    const n = dv.getUint32(o, true); o += 4;
    const f = () => { const v = dv.getFloat32(o, true); o += 4; return v; };
    const vec = () => [f(), f(), f()];
    const str = () => { const l = dv.getUint16(o, true); const s = td.decode(u8.subarray(o + 2, o + 2 + l)); o += 2 + l; return s; };
    for (let i = 0; i < n && o < end; i++) {
      const it = {
        kind: u8[o], color: "rgba(" + u8[o + 1] + "," + u8[o + 2] + "," + u8[o + 3] + "," + (u8[o + 4] / 255).toFixed(3) + ")",
        rgb: [u8[o + 1] / 255, u8[o + 2] / 255, u8[o + 3] / 255], int: (u8[o + 1] << 16) | (u8[o + 2] << 8) | u8[o + 3],
      };
      o += 5;
      switch (it.kind) {
        case 1: it.size = f(); it.p = [vec()]; break;
        case 2: { it.width = f(); const k = dv.getUint32(o, true); o += 4; it.p = []; for (let j = 0; j < k; j++) it.p.push(vec()); break; }
        case 3: it.fill = !!u8[o++]; it.radius = f(); it.p = [vec()]; break;
        case 4: it.fill = !!u8[o++]; it.size3 = vec(); it.yaw = f(); it.p = [vec()]; break;
        case 5: it.text = str(); it.p = [vec()]; break;
        case 6: it.robot = dv.getUint32(o, true); o += 4; it.text = str(); break;
        case 7: it.robot = dv.getUint32(o, true); o += 4; break;
        default: return items;
      }
      items.push(it);
    }
    return items;
  }

  function onScene(sc) {
    const first = !S.scene;
    S.scene = sc;
    sc.slot = [];
    let m = 0;
    for (const b of sc.bodies) sc.slot.push(b.movable ? m++ : -1);
    sc.slot.movable = m;
    sc.robotByID = new Map(sc.robots.map((r, i) => [r.id, i]));
    S.F = null;
    S.overlay = null;
    S.override = null;
    $("experiment").textContent = (sc.title ? sc.title + " — " : "") + (sc.experiment || "");
    $("maxticks").textContent = sc.max_ticks > 0 ? " / " + sc.max_ticks : "";
    // robot list
    const sel = $("robot-select");
    const keep = S.selected;
    sel.length = 1;
    const frag = document.createDocumentFragment();
    for (const r of sc.robots) {
      const o = document.createElement("option");
      o.value = o.textContent = r.id;
      frag.appendChild(o);
    }
    sel.appendChild(frag);
    sel.value = keep;
    // camera presets of the experiment
    const box = $("cams");
    box.textContent = "";
    for (const c of sc.cameras || []) {
      const b = document.createElement("button");
      b.textContent = "C" + (c.index + 1);
      b.id = "cam-" + c.index;
      b.title = "Camera " + (c.index + 1) + " of the experiment: at " + c.position.map((x) => x.toFixed(2)).join(", ") + ", looking at " + c.look_at.map((x) => x.toFixed(2)).join(", ");
      b.onclick = () => { setView("3d"); cam.placement(c); requestDraw(); };
      box.appendChild(b);
    }
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
      if (sc.view === "3d") {
        if (sc.cameras && sc.cameras.length) cam.placement(sc.cameras[0]);
        setView("3d");
      }
    }
    GL.floorDirty = true;
  }

  function onStatus() {
    const f = S.F;
    $("tick").textContent = f.tick;
    $("time").textContent = (f.tick / S.scene.tps).toFixed(1);
    let st = f.finished ? "finished" : f.playing ? "playing" : "paused";
    if (!f.driven) st += " (watch only)";
    $("status").textContent = st;
    $("message").textContent = f.message || "";
    $("play").classList.toggle("on", f.playing);
    $("pause").classList.toggle("on", !f.playing);
    const sp = String(Math.round(f.speed * 1000) / 1000);
    if ($("speed").value !== sp && [...$("speed").options].some((o) => o.value === sp)) $("speed").value = sp;
  }

  let toastTimer = 0;
  function toast(msg) {
    const t = $("toast");
    t.textContent = msg;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => (t.hidden = true), 5000);
  }

  // ---------- geometry helpers ----------
  // pose of scene body k: [x, y, z, yaw]; static bodies' are in the
  // scene, the movable ones' in the frames
  function pose(k) {
    const b = S.scene.bodies[k];
    let ps;
    if (b.pose) ps = b.pose;
    else {
      const p = S.F.pose, m = 4 * S.scene.slot[k];
      ps = [p[m], p[m + 1], p[m + 2], p[m + 3]];
    }
    const ov = S.override;
    if (ov && ov.body === k) return [ov.x, ov.y, ps[2], ov.yaw];
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
  function pick(x, y, pad) {
    if (!S.scene || !S.F) return -1;
    const bs = S.scene.bodies;
    for (const pass of [0, 1, 2]) {
      for (let k = bs.length - 1; k >= 0; k--) {
        const b = bs[k];
        const kind = b.robot >= 0 ? 0 : b.movable ? 1 : 2;
        if (kind !== pass) continue;
        if (contains(b, pose(k), x, y, pass === 0 ? pad : 0)) return k;
      }
    }
    return -1;
  }
  const hexCache = new Map();
  const hex = (n) => {
    let s = hexCache.get(n);
    if (!s) { s = "#" + n.toString(16).padStart(6, "0"); hexCache.set(n, s); }
    return s;
  };
  const robotColor = { "foot-bot": "#3d7ec9", "e-puck": "#3aa365", "eye-bot": "#9b59b6" };
  // the LEDs of scene robot i: those of the frames, or all off
  const offLEDs = [];
  function ledsOf(i) {
    const l = S.F.leds[i];
    if (l) return l;
    const n = S.scene.robots[i].leds;
    return offLEDs[n] || (offLEDs[n] = Object.freeze(new Array(n).fill(0)));
  }
  const OFF_LED = "#d4d8dd"; // an LED that is off: a pale lens, not a black dot
  // the LEDs' places on a robot: from the scene's model, else a ring
  function ledMounts(rb, n) {
    const m = S.scene.models && S.scene.models[rb.type];
    if (m && m.leds.length === n) return m.leds;
    const out = [];
    for (let i = 0; i < n; i++) out.push([(2 * Math.PI * (i + 0.5)) / n, -0.75, 0]);
    return out;
  }
  // the colour user functions gave each robot, if any
  function userColors() {
    const F = S.F, out = new Map();
    if (F && F.drawing) for (const it of F.drawing) if (it.kind === 7) out.set(it.robot, it);
    return out;
  }
  // a "nice" grid spacing: 1, 2 or 5 times a power of ten, about n lines
  // across length metres
  function niceStep(length, n) {
    const raw = Math.max(length / n, 1e-3), p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
    return 10 * p;
  }

  // ---------- top view ----------
  const view2 = { cx: 0, cy: 0, scale: 100 }; // pixels per metre
  function fit() {
    if (!S.scene) return;
    const r = top.getBoundingClientRect();
    const sz = S.scene.size;
    view2.cx = S.scene.center[0];
    view2.cy = S.scene.center[1];
    view2.scale = Math.max(2, 0.94 * Math.min(r.width / sz[0], r.height / sz[1]));
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
    if (!S.scene || !S.F) return;
    const sc = S.scene, F = S.F, k2 = view2.scale, px = 1 / k2;
    // world transform: metres, y up
    ctx.setTransform(d * k2, 0, 0, -d * k2, d * (r.width / 2 - view2.cx * k2), d * (r.height / 2 + view2.cy * k2));
    const lo = [sc.center[0] - sc.size[0] / 2, sc.center[1] - sc.size[1] / 2];
    const hi = [lo[0] + sc.size[0], lo[1] + sc.size[1]];
    if (S.floorCanvas) {
      ctx.save();
      ctx.translate(lo[0], hi[1]);
      ctx.scale(sc.size[0] / S.floorCanvas.width, -sc.size[1] / S.floorCanvas.height);
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(S.floorCanvas, 0, 0);
      ctx.restore();
    } else {
      ctx.fillStyle = "#fff";
      ctx.fillRect(lo[0], lo[1], sc.size[0], sc.size[1]);
    }
    // what of the arena is on screen, with a margin
    const v0 = s2w(0, r.height), v1 = s2w(r.width, 0);
    const vx0 = Math.max(lo[0], v0[0]), vy0 = Math.max(lo[1], v0[1]), vx1 = Math.min(hi[0], v1[0]), vy1 = Math.min(hi[1], v1[1]);
    // a grid of about 12 lines across the visible part, thin and pale
    const step = niceStep(Math.max(vx1 - vx0, vy1 - vy0), 12);
    S.gridStep = step;
    ctx.strokeStyle = "rgba(0,0,0,0.07)";
    ctx.lineWidth = px;
    ctx.beginPath();
    for (let x = Math.ceil(vx0 / step) * step; x <= vx1; x += step) { ctx.moveTo(x, vy0); ctx.lineTo(x, vy1); }
    for (let y = Math.ceil(vy0 / step) * step; y <= vy1; y += step) { ctx.moveTo(vx0, y); ctx.lineTo(vx1, y); }
    ctx.stroke();
    const bodies = sc.bodies;
    const mx = v0[0] - 0.3, my = v0[1] - 0.3, Mx = v1[0] + 0.3, My = v1[1] + 0.3;
    // objects: static ones, then movable ones, in one path per kind
    for (const movable of [false, true]) {
      ctx.beginPath();
      let any = false;
      for (let k = 0; k < bodies.length; k++) {
        const b = bodies[k];
        if (b.robot >= 0 || b.movable !== movable) continue;
        const ps = pose(k);
        if (ps[0] < mx - b.r || ps[0] > Mx + b.r || ps[1] < my - b.r || ps[1] > My + b.r) continue;
        any = true;
        if (b.shape === "disc") { ctx.moveTo(ps[0] + b.r, ps[1]); ctx.arc(ps[0], ps[1], b.r, 0, 2 * Math.PI); }
        else {
          const c = Math.cos(ps[3]), s = Math.sin(ps[3]);
          for (let i = 0; i < 4; i++) {
            const lx = (i === 0 || i === 3 ? 1 : -1) * b.hx, ly = (i < 2 ? 1 : -1) * b.hy;
            const x = ps[0] + c * lx - s * ly, y = ps[1] + s * lx + c * ly;
            if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
          }
          ctx.closePath();
        }
      }
      if (!any) continue;
      ctx.fillStyle = movable ? "#b07a45" : "#80868e";
      ctx.fill();
      ctx.lineWidth = 1.2 * px;
      ctx.strokeStyle = "#22252a";
      ctx.stroke();
    }
    // what user functions draw lies on the floor, under the robots, as in
    // ARGoS's 3D view
    drawUserTop(k2);
    drawRobots(k2, mx, my, Mx, My);
    drawOverlay2(k2);
    for (const [x, y, z, c] of F.objLEDs) { // LEDs on boxes and cylinders
      ctx.fillStyle = hex(c);
      ctx.strokeStyle = "#22252a";
      ctx.lineWidth = px;
      ctx.beginPath();
      ctx.arc(x, y, Math.max(0.015, 3 * px), 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
    for (const [x, y, z, rad, c] of F.spots) {
      ctx.fillStyle = hex(c);
      ctx.beginPath();
      ctx.arc(x, y, Math.max(rad, 2 * px), 0, 2 * Math.PI);
      ctx.fill();
    }
    // lights: a halo and a bulb of at least a few pixels, at any zoom
    for (const l of sc.lights) {
      ctx.fillStyle = l.color + "55";
      ctx.beginPath(); ctx.arc(l.p[0], l.p[1], Math.max(0.12, 14 * px), 0, 2 * Math.PI); ctx.fill();
      ctx.fillStyle = l.color;
      ctx.strokeStyle = "#22252a";
      ctx.lineWidth = 1.5 * px;
      ctx.beginPath(); ctx.arc(l.p[0], l.p[1], Math.max(0.05, 6 * px), 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    }
    drawSelection(k2);
    // ids and the user functions' text, in screen space
    ctx.setTransform(d, 0, 0, d, 0, 0);
    ctx.font = "11px system-ui, sans-serif";
    ctx.textAlign = "center";
    if ($("labels").checked) {
      ctx.fillStyle = "#111";
      ctx.strokeStyle = "rgba(255,255,255,0.85)";
      ctx.lineWidth = 3;
      ctx.lineJoin = "round";
      for (const rb of sc.robots) {
        const b = bodies[rb.body];
        if (b.r * k2 < 9) continue;
        const ps = pose(rb.body);
        if (ps[0] < mx || ps[0] > Mx || ps[1] < my || ps[1] > My) continue;
        const s = w2s(ps[0], ps[1]);
        ctx.strokeText(rb.id, s[0], s[1] - b.r * k2 - 6);
        ctx.fillText(rb.id, s[0], s[1] - b.r * k2 - 6);
      }
    }
    drawUserText((x, y, z) => w2s(x, y), (rb) => {
      const b = bodies[rb.body], ps = pose(rb.body), s = w2s(ps[0], ps[1]);
      return [s[0], s[1] - b.r * k2 - ($("labels").checked && b.r * k2 >= 9 ? 20 : 6)];
    });
  }

  // drawRobots draws the robots inside the visible rectangle, with as
  // much detail as their size on screen allows. Small ones (a large
  // swarm seen whole) are stamped as pixels into a layer: a dot, or a
  // disc with a dark rim and a white heading; larger ones are discs
  // drawn as paths, batched by colour; the largest get their whole model.
  const layer = { canvas: null, img: null, u: null, w: 0, h: 0 };
  const masks = new Map(); // pixel radius (in tenths) -> disc offsets
  function discMask(R) {
    const key = Math.round(R * 10);
    let m = masks.get(key);
    if (m) return m;
    const rim = [], fill = [], n = Math.ceil(R);
    for (let y = -n; y <= n; y++)
      for (let x = -n; x <= n; x++) {
        const d = Math.hypot(x, y);
        if (d <= R - 1) fill.push(x, y); else if (d <= R) rim.push(x, y);
      }
    m = { rim, fill };
    masks.set(key, m);
    return m;
  }
  const abgr = (c) => 0xff000000 | ((c & 255) << 16) | (c & 0xff00) | ((c >> 16) & 255);
  const typeColor = { "foot-bot": 0x3d7ec9, "e-puck": 0x3aa365, "eye-bot": 0x9b59b6 };
  function drawRobots(k2, mx, my, Mx, My) {
    const sc = S.scene, F = S.F, P = F.pose, bodies = sc.bodies, robots = sc.robots, px = 1 / k2;
    const user = userColors();
    const d = window.devicePixelRatio || 1, W = top.width, H = top.height;
    const rect = top.getBoundingClientRect();
    const ox = d * (rect.width / 2 - view2.cx * k2), oy = d * (rect.height / 2 + view2.cy * k2), kd = d * k2;
    let L = null;
    const groups = new Map();
    const detailed = [];
    let n = 0;
    const ov = S.override;
    for (let i = 0; i < robots.length; i++) {
      const rb = robots[i], k = rb.body, b = bodies[k];
      const m = 4 * sc.slot[k];
      let x = P[m], y = P[m + 1], yaw = P[m + 3];
      if (ov && ov.body === k) { x = ov.x; y = ov.y; yaw = ov.yaw; }
      if (x < mx - b.r || x > Mx + b.r || y < my - b.r || y > My + b.r) continue;
      n++;
      const rpx = b.r * k2;
      if (rpx >= 7) { detailed.push(i); continue; }
      const u = user.get(i);
      const col = u ? u.int : F.lit[i] >= 0 ? F.lit[i] : typeColor[rb.type] || 0x3d7ec9;
      if (rpx >= 4) {
        let g = groups.get(col);
        if (!g) { g = []; groups.set(col, g); }
        g.push(x, y, yaw, b.r);
        continue;
      }
      // stamped into the pixel layer
      if (!L) {
        if (layer.w !== W || layer.h !== H) {
          layer.canvas = layer.canvas || document.createElement("canvas");
          layer.canvas.width = layer.w = W;
          layer.canvas.height = layer.h = H;
          layer.img = layer.canvas.getContext("2d").createImageData(W, H);
          layer.u = new Uint32Array(layer.img.data.buffer);
        }
        L = layer.u;
        L.fill(0);
      }
      const cx = ox + kd * x, cy = oy - kd * y, R = b.r * kd, c = abgr(col);
      if (R < 1.3) {
        const x0 = Math.round(cx - 1), y0 = Math.round(cy - 1);
        for (let yy = y0; yy < y0 + 2; yy++)
          if (yy >= 0 && yy < H) for (let xx = x0; xx < x0 + 2; xx++) if (xx >= 0 && xx < W) L[yy * W + xx] = c;
        continue;
      }
      const ix = Math.round(cx), iy = Math.round(cy), mk = discMask(R);
      for (const [list, cc] of [[mk.rim, 0xff2a2522], [mk.fill, c]])
        for (let j = 0; j < list.length; j += 2) {
          const xx = ix + list[j], yy = iy + list[j + 1];
          if (xx >= 0 && xx < W && yy >= 0 && yy < H) L[yy * W + xx] = cc;
        }
      const ca = Math.cos(yaw), sa = Math.sin(yaw);
      for (let t = 0; t < R - 0.5; t += 0.7) {
        const xx = Math.round(cx + ca * t), yy = Math.round(cy - sa * t);
        if (xx >= 0 && xx < W && yy >= 0 && yy < H) L[yy * W + xx] = 0xfff5f5f5;
      }
    }
    S.drawn = n;
    if (L) {
      layer.canvas.getContext("2d").putImageData(layer.img, 0, 0);
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(layer.canvas, 0, 0);
      ctx.restore();
    }
    if (groups.size) {
      ctx.lineWidth = px;
      ctx.strokeStyle = "#22252a";
      for (const [col, g] of groups) {
        ctx.fillStyle = hex(col);
        ctx.beginPath();
        for (let j = 0; j < g.length; j += 4) { ctx.moveTo(g[j] + g[j + 3], g[j + 1]); ctx.arc(g[j], g[j + 1], g[j + 3], 0, 2 * Math.PI); }
        ctx.fill();
        ctx.stroke();
      }
      ctx.strokeStyle = "#f5f5f5";
      ctx.lineWidth = 1.4 * px;
      ctx.beginPath();
      for (const g of groups.values())
        for (let j = 0; j < g.length; j += 4) {
          ctx.moveTo(g[j], g[j + 1]);
          ctx.lineTo(g[j] + Math.cos(g[j + 2]) * g[j + 3], g[j + 1] + Math.sin(g[j + 2]) * g[j + 3]);
        }
      ctx.stroke();
    }
    for (const i of detailed) {
      const rb = robots[i], k = rb.body, b = bodies[k], ps = pose(k);
      ctx.save();
      ctx.translate(ps[0], ps[1]);
      ctx.rotate(ps[3]);
      drawRobotModel(b, rb, ledsOf(i), k2, user.get(i));
      ctx.restore();
    }
  }

  // drawRobotModel draws one robot from above, in its own frame (x
  // forward): wheels, body, gripper, rotors, LEDs.
  function drawRobotModel(b, rb, ll, k2, user) {
    const r = b.r, px = 1 / k2, model = (S.scene.models && S.scene.models[rb.type]) || {};
    ctx.lineWidth = px;
    ctx.strokeStyle = "#22252a";
    const body = user ? user.color : robotColor[rb.type] || "#3d7ec9";
    if (rb.type === "eye-bot") {
      // a quadrotor: four arms and rotors around a small body
      ctx.strokeStyle = "#2d3036";
      ctx.lineWidth = r * 0.08;
      ctx.beginPath();
      for (let i = 0; i < 4; i++) {
        const a = Math.PI / 4 + (i * Math.PI) / 2;
        ctx.moveTo(0, 0); ctx.lineTo(Math.cos(a) * r * 0.72, Math.sin(a) * r * 0.72);
      }
      ctx.stroke();
      ctx.lineWidth = px;
      ctx.strokeStyle = "#22252a";
      ctx.fillStyle = "rgba(60,64,72,0.45)";
      for (let i = 0; i < 4; i++) {
        const a = Math.PI / 4 + (i * Math.PI) / 2;
        ctx.beginPath(); ctx.arc(Math.cos(a) * r * 0.72, Math.sin(a) * r * 0.72, r * 0.3, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      }
      ctx.fillStyle = body;
      ctx.beginPath(); ctx.arc(0, 0, r * 0.32, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    } else {
      if (model.wheels) {
        // the wheels (the foot-bot's treels) on both sides
        ctx.fillStyle = "#2d3036";
        const w = rb.type === "foot-bot" ? [r * 0.75, r * 0.28] : [r * 0.55, r * 0.14];
        for (const s of [1, -1]) ctx.fillRect(-w[0], s > 0 ? r * 0.9 - w[1] : -r * 0.9, 2 * w[0], w[1]);
      }
      ctx.fillStyle = body;
      ctx.beginPath();
      ctx.arc(0, 0, r * (model.wheels ? 0.86 : 1), 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      if (model.gripper) {
        ctx.fillStyle = "#2d3036";
        ctx.fillRect(r * 0.86, -r * 0.14, r * 0.3, r * 0.28);
      }
      // heading
      ctx.fillStyle = "#f5f5f5";
      ctx.beginPath();
      ctx.moveTo(r * 0.8, 0);
      ctx.lineTo(r * 0.15, r * 0.3);
      ctx.lineTo(r * 0.15, -r * 0.3);
      ctx.closePath();
      ctx.fill();
    }
    // LEDs: lit ones in their colour, the others as pale lenses; the
    // LEDs of the upper rings first, then the ones beneath
    const mounts = ledMounts(rb, ll.length);
    const lr = Math.max(r * (rb.type === "eye-bot" ? 0.045 : 0.14), 1.5 * px);
    for (let i = 0; i < ll.length; i++) {
      const [a, rad] = mounts[i];
      const rr = rad < 0 ? -rad * r : Math.min(rad, r * 0.95) * (rb.type === "foot-bot" ? 0.8 : 1);
      const x = Math.cos(a) * rr, y = Math.sin(a) * rr;
      ctx.fillStyle = ll[i] ? hex(ll[i]) : OFF_LED;
      ctx.beginPath();
      ctx.arc(x, y, ll[i] ? lr : lr * 0.7, 0, 2 * Math.PI);
      ctx.fill();
      if (ll[i]) ctx.stroke();
    }
  }

  // the selected body: a ring, the turning handle, and while dragging,
  // whether the drop is allowed
  function drawSelection(k2) {
    const sc = S.scene, px = 1 / k2;
    let k = -1;
    if (S.selected && sc.robotByID.has(S.selected)) k = sc.robots[sc.robotByID.get(S.selected)].body;
    else if (S.selectedObject !== null) k = S.selectedObject;
    if (k < 0) return;
    const b = sc.bodies[k], ps = pose(k);
    const ov = S.override && S.override.body === k ? S.override : null;
    ctx.strokeStyle = ov && ov.ok === false ? "#e0322b" : "#ffd400";
    ctx.lineWidth = 2.5 * px;
    ctx.beginPath();
    ctx.arc(ps[0], ps[1], b.r + 4 * px, 0, 2 * Math.PI);
    ctx.stroke();
    if (b.movable) {
      const h = handle(k);
      ctx.beginPath();
      ctx.moveTo(ps[0] + Math.cos(ps[3]) * (b.r + 4 * px), ps[1] + Math.sin(ps[3]) * (b.r + 4 * px));
      ctx.lineTo(h[0], h[1]);
      ctx.stroke();
      ctx.fillStyle = "#ffd400";
      ctx.beginPath();
      ctx.arc(h[0], h[1], 5 * px, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  // where the turning handle of body k is: ahead of it, 16 pixels out
  function handle(k) {
    const b = S.scene.bodies[k], ps = pose(k), d = b.r + 16 / view2.scale;
    return [ps[0] + Math.cos(ps[3]) * d, ps[1] + Math.sin(ps[3]) * d];
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

  // what the user functions draw, from above (texts come later, in
  // screen space)
  function drawUserTop(k2) {
    const D = S.F.drawing;
    if (!D) return;
    const px = 1 / k2;
    for (const it of D) {
      switch (it.kind) {
        case 1:
          ctx.fillStyle = it.color;
          ctx.beginPath();
          ctx.arc(it.p[0][0], it.p[0][1], Math.max(it.size / 2, 1) * px, 0, 2 * Math.PI);
          ctx.fill();
          break;
        case 2:
          ctx.strokeStyle = it.color;
          ctx.lineWidth = Math.max(it.width, 1) * px;
          ctx.lineJoin = "round";
          ctx.beginPath();
          ctx.moveTo(it.p[0][0], it.p[0][1]);
          for (let j = 1; j < it.p.length; j++) ctx.lineTo(it.p[j][0], it.p[j][1]);
          ctx.stroke();
          break;
        case 3:
          ctx.beginPath();
          ctx.arc(it.p[0][0], it.p[0][1], it.radius, 0, 2 * Math.PI);
          if (it.fill) { ctx.fillStyle = it.color; ctx.fill(); }
          else { ctx.strokeStyle = it.color; ctx.lineWidth = 2 * px; ctx.stroke(); }
          break;
        case 4: {
          ctx.save();
          ctx.translate(it.p[0][0], it.p[0][1]);
          ctx.rotate(it.yaw);
          ctx.beginPath();
          ctx.rect(-it.size3[0] / 2, -it.size3[1] / 2, it.size3[0], it.size3[1]);
          if (it.fill) { ctx.fillStyle = it.color; ctx.fill(); }
          else { ctx.strokeStyle = it.color; ctx.lineWidth = 2 * px; ctx.stroke(); }
          ctx.restore();
          break;
        }
      }
    }
  }
  // texts of the user functions, where place puts a world point and
  // above puts a robot's label
  function drawUserText(place, above) {
    const D = S.F.drawing;
    if (!D) return;
    ctx.textAlign = "center";
    ctx.font = "bold 12px system-ui, sans-serif";
    for (const it of D) {
      let s;
      if (it.kind === 5) s = place(it.p[0][0], it.p[0][1], it.p[0][2]);
      else if (it.kind === 6) { const rb = S.scene.robots[it.robot]; if (rb) s = above(rb); }
      else continue;
      if (!s) continue;
      const w = ctx.measureText(it.text).width;
      ctx.fillStyle = "rgba(255,255,255,0.75)";
      ctx.fillRect(s[0] - w / 2 - 2, s[1] - 11, w + 4, 14);
      ctx.fillStyle = it.color;
      ctx.fillText(it.text, s[0], s[1]);
    }
  }

  // ---------- 3D view ----------
  const cam = {
    tx: 0, ty: 0, tz: 0, dist: 6, az: -Math.PI / 2, el: 0.9, fov: (45 * Math.PI) / 180, follow: false,
    up: null, // a placement's up vector; null: the world's z
    preset(name) {
      if (!S.scene) return;
      const sz = S.scene.size, c = S.scene.center;
      this.tx = c[0]; this.ty = c[1]; this.tz = 0;
      this.fov = (45 * Math.PI) / 180;
      this.dist = (0.62 * Math.max(sz[0], sz[1])) / Math.tan(this.fov / 2);
      this.follow = false;
      this.up = null;
      switch (name) {
        case "top": this.az = -Math.PI / 2; this.el = Math.PI / 2 - 0.001; break;
        case "front": this.az = -Math.PI / 2; this.el = 0.45; break;
        case "side": this.az = 0; this.el = 0.45; break;
        case "iso": this.az = -Math.PI / 4; this.el = 0.7; break;
      }
    },
    // placement takes one of the experiment's cameras (ARGoS's
    // <placement>): eye, target, up vector and field of view
    placement(c) {
      const d = [c.position[0] - c.look_at[0], c.position[1] - c.look_at[1], c.position[2] - c.look_at[2]];
      this.tx = c.look_at[0]; this.ty = c.look_at[1]; this.tz = c.look_at[2];
      this.dist = Math.hypot(d[0], d[1], d[2]);
      this.el = Math.asin(Math.max(-1, Math.min(1, d[2] / this.dist)));
      this.az = Math.hypot(d[0], d[1]) > 1e-9 ? Math.atan2(d[1], d[0]) : 0;
      this.up = c.up;
      this.fov = (c.fovy * Math.PI) / 180;
      this.follow = false;
      this.current = c.index;
    },
    eye() {
      const ce = Math.cos(this.el);
      return [this.tx + this.dist * ce * Math.cos(this.az), this.ty + this.dist * ce * Math.sin(this.az), this.tz + this.dist * Math.sin(this.el)];
    },
    basis() {
      const e = this.eye();
      const f = norm([this.tx - e[0], this.ty - e[1], this.tz - e[2]]);
      let r = cross(f, this.up || [0, 0, 1]);
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
    const near = Math.max(0.005, cam.dist / 2000), far = Math.max(500, cam.dist * 20), t = 1 / Math.tan(cam.fov / 2);
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
  // where a world point is on the 3D canvas (CSS pixels), or null behind
  // the camera
  function project(VP, x, y, z, w, h) {
    const cx = VP[0] * x + VP[4] * y + VP[8] * z + VP[12];
    const cy = VP[1] * x + VP[5] * y + VP[9] * z + VP[13];
    const cw = VP[3] * x + VP[7] * y + VP[11] * z + VP[15];
    if (cw <= 1e-6) return null;
    return [(cx / cw + 1) * 0.5 * w, (1 - cy / cw) * 0.5 * h];
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
        vec3 n = aNorm / max(iScale, vec3(1e-6));
        vN = vec3(c * n.x - s * n.y, s * n.x + c * n.y, n.z);
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
    // a swarm seen from afar: one point sprite per robot, as large as
    // the robot on the screen
    GL.points = mk(`#version 300 es
      layout(location=0) in vec4 aP; layout(location=1) in vec3 aC;
      uniform mat4 uVP; uniform float uScale; out vec3 vC;
      void main() {
        vec4 c = uVP * vec4(aP.xyz, 1.0);
        gl_Position = c;
        gl_PointSize = clamp(aP.w * uScale / max(c.w, 1e-4), 2.0, 64.0);
        vC = aC;
      }`, `#version 300 es
      precision mediump float; in vec3 vC; out vec4 o;
      void main() {
        vec2 q = gl_PointCoord * 2.0 - 1.0;
        float r2 = dot(q, q);
        if (r2 > 1.0) discard;
        o = vec4(r2 > 0.64 ? vC * 0.35 : vC * (1.0 - 0.25 * q.y), 1.0);
      }`);
    GL.pointVAO = gl.createVertexArray();
    gl.bindVertexArray(GL.pointVAO);
    GL.pointBuf = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, GL.pointBuf);
    gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 4, gl.FLOAT, false, 28, 0);
    gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 28, 16);
    gl.bindVertexArray(null);
    GL.pointData = new Float32Array(7 * 1024);
    GL.meshes = { box: meshBox(), cyl: meshCylinder(20), lowcyl: meshCylinder(8), sphere: meshSphere(6, 10), wheel: meshWheel(14) };
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
      const st = 11 * 4;
      for (const [loc, n, off] of [[2, 4, 0], [3, 3, 16], [4, 4, 28]]) {
        gl.enableVertexAttribArray(loc);
        gl.vertexAttribPointer(loc, n, gl.FLOAT, false, st, off);
        gl.vertexAttribDivisor(loc, 1);
      }
      m.count = m.data.length / 6;
      m.inst = new Float32Array(11 * 1024);
      m.n = 0;
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
  // a vertical cylinder of radius 1 from z = 0 to 1
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
  // a wheel: a cylinder of radius 1 along y, from y = -1 to 1, centred
  // on z = 0
  function meshWheel(n) {
    const d = [];
    for (let i = 0; i < n; i++) {
      const a0 = (2 * Math.PI * i) / n, a1 = (2 * Math.PI * (i + 1)) / n;
      const x0 = Math.cos(a0), z0 = Math.sin(a0), x1 = Math.cos(a1), z1 = Math.sin(a1);
      d.push(x0, -1, z0, x0, 0, z0, x0, 1, z0, x0, 0, z0, x1, 1, z1, x1, 0, z1);
      d.push(x0, -1, z0, x0, 0, z0, x1, 1, z1, x1, 0, z1, x1, -1, z1, x1, 0, z1);
      d.push(0, 1, 0, 0, 1, 0, x1, 1, z1, 0, 1, 0, x0, 1, z0, 0, 1, 0);
      d.push(0, -1, 0, 0, -1, 0, x0, -1, z0, 0, -1, 0, x1, -1, z1, 0, -1, 0);
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
  const GREY = [0.55, 0.57, 0.6], DARK = [0.17, 0.18, 0.2], OFF = [0.8, 0.82, 0.85], WOOD = [0.69, 0.48, 0.27];

  // add puts one instance of a mesh: position, yaw, scale, colour
  // (emissive: unlit)
  function add(name, x, y, z, yaw, sx, sy, sz, c, emissive) {
    const m = GL.meshes[name];
    if ((m.n + 1) * 11 > m.inst.length) {
      const a = new Float32Array(m.inst.length * 2);
      a.set(m.inst);
      m.inst = a;
    }
    const a = m.inst, o = m.n * 11;
    a[o] = x; a[o + 1] = y; a[o + 2] = z; a[o + 3] = yaw;
    a[o + 4] = sx; a[o + 5] = sy; a[o + 6] = sz;
    a[o + 7] = c[0]; a[o + 8] = c[1]; a[o + 9] = c[2]; a[o + 10] = emissive ? 1 : 0;
    m.n++;
  }
  // part puts a mesh at (lx, ly, z) in the frame of a robot at ps
  function part(ps, name, lx, ly, z, yaw, sx, sy, sz, c, emissive) {
    const co = Math.cos(ps[3]), si = Math.sin(ps[3]);
    add(name, ps[0] + co * lx - si * ly, ps[1] + si * lx + co * ly, ps[2] + z, ps[3] + yaw, sx, sy, sz, c, emissive);
  }

  // how high a robot's model reaches above its base
  const modelTop = (rb, b) => (rb.type === "foot-bot" ? 0.29 : rb.type === "eye-bot" ? 0.23 : b.h);

  // robot3D puts the model of a robot: the foot-bot with its treels,
  // chassis, LED ring, gripper and beacon tube; the e-puck with its
  // wheels and board; the eye-bot as a quadrotor
  function robot3D(b, rb, ps, ll, col) {
    const r = b.r, h = b.h;
    const mounts = ledMounts(rb, ll.length);
    const led = (i, size) => {
      const [a, rad, z] = mounts[i];
      const rr = rad < 0 ? -rad * r : rad;
      part(ps, "sphere", Math.cos(a) * rr, Math.sin(a) * rr, z > 0 ? z : h * 0.85, 0, size, size, size, ll[i] ? rgb(ll[i]) : OFF, !!ll[i]);
    };
    if (rb.type === "foot-bot") {
      for (const s of [1, -1]) part(ps, "box", 0, s * r * 0.72, 0, 0, r * 0.78, r * 0.2, 0.045, DARK);
      part(ps, "cyl", 0, 0, 0.012, 0, r * 0.86, r * 0.86, 0.06, GREY);
      part(ps, "cyl", 0, 0, 0.072, 0, r * 0.98, r * 0.98, 0.008, col);
      part(ps, "cyl", 0, 0, 0.08, 0, r * 0.88, r * 0.88, 0.012, DARK);
      part(ps, "box", r * 1.0, 0, 0.078, 0, r * 0.18, r * 0.1, 0.014, DARK);
      part(ps, "cyl", 0, 0, 0.092, 0, r * 0.62, r * 0.62, 0.045, GREY);
      part(ps, "cyl", 0, 0, 0.137, 0, r * 0.14, r * 0.14, 0.15, [0.86, 0.88, 0.9]);
      part(ps, "cyl", 0, 0, 0.285, 0, r * 0.3, r * 0.3, 0.006, DARK);
      for (let i = 0; i < ll.length; i++) led(i, i === 12 ? r * 0.17 : r * 0.085);
    } else if (rb.type === "e-puck") {
      // wheels through the sides of the base, the green board, the
      // turret with the LED ring on its rim
      for (const s of [1, -1]) part(ps, "wheel", 0, s * r * 0.8, 0.0205, 0, 0.0205, r * 0.12, 0.0205, DARK);
      part(ps, "cyl", 0, 0, 0.003, 0, r * 0.78, r * 0.78, 0.042, [0.78, 0.85, 0.8]);
      part(ps, "cyl", 0, 0, 0.045, 0, r, r, 0.004, col);
      part(ps, "cyl", 0, 0, 0.049, 0, r * 0.9, r * 0.9, 0.031, [0.85, 0.87, 0.9]);
      part(ps, "cyl", 0, 0, 0.08, 0, r * 1.2, r * 1.2, 0.003, [0.3, 0.32, 0.36]);
      part(ps, "box", r * 0.55, 0, 0.083, 0, r * 0.35, r * 0.1, 0.002, [0.96, 0.96, 0.96]);
      for (let i = 0; i < ll.length; i++) led(i, r * 0.1);
    } else if (rb.type === "eye-bot") {
      // a line and a shadow down to the floor show where it flies
      if (ps[2] > 0.01) add("cyl", ps[0], ps[1], 0.0008, 0, r * 0.75, r * 0.75, 0.0008, [0.6, 0.61, 0.64]);
      part(ps, "cyl", 0, 0, 0.06, 0, r * 0.26, r * 0.26, 0.16, col);
      for (let i = 0; i < 4; i++) {
        const a = Math.PI / 4 + (i * Math.PI) / 2, c = Math.cos(a), s = Math.sin(a);
        part(ps, "box", c * r * 0.36, s * r * 0.36, 0.19, a, r * 0.36, r * 0.035, 0.012, DARK);
        part(ps, "cyl", c * r * 0.72, s * r * 0.72, 0.2, 0, r * 0.28, r * 0.28, 0.004, [0.33, 0.35, 0.4]);
        part(ps, "lowcyl", c * r * 0.72, s * r * 0.72, 0.15, 0, r * 0.03, r * 0.03, 0.05, DARK);
      }
      for (let i = 0; i < 4; i++) {
        const a = (i * Math.PI) / 2 + Math.PI / 4, c = Math.cos(a), s = Math.sin(a);
        part(ps, "box", c * r * 0.2, s * r * 0.2, 0, 0, 0.006, 0.006, 0.06, DARK);
      }
      part(ps, "cyl", 0, 0, 0.14, 0, r * 1.0, r * 1.0, 0.004, [0.5, 0.52, 0.56]);
      part(ps, "box", r * 0.2, 0, 0.22, 0, r * 0.12, r * 0.03, 0.008, [0.96, 0.96, 0.96]);
      for (let i = 0; i < ll.length; i++) led(i, r * 0.028);
    } else {
      add("cyl", ps[0], ps[1], ps[2], ps[3], r, r, h * 0.8, col);
      for (let i = 0; i < ll.length; i++) led(i, r * 0.1);
    }
  }

  function drawGL() {
    if (!GL.ok && !initGL()) {
      toast("This browser has no WebGL 2: showing the top view");
      setView("top");
      return;
    }
    const gl = GL.gl;
    const d = resize(glc);
    resize(lab);
    const rc = glc.getBoundingClientRect();
    lctx.setTransform(d, 0, 0, d, 0, 0);
    lctx.clearRect(0, 0, rc.width, rc.height);
    gl.viewport(0, 0, glc.width, glc.height);
    gl.clearColor(0.29, 0.31, 0.34, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    S.drawn = 0;
    if (!S.scene || !S.F) return;
    gl.enable(gl.DEPTH_TEST);
    const sc = S.scene, F = S.F;
    if (cam.follow && S.selected && sc.robotByID.has(S.selected)) {
      const ps = pose(sc.robots[sc.robotByID.get(S.selected)].body);
      cam.tx = ps[0]; cam.ty = ps[1];
    }
    const VP = viewProj(glc.width / glc.height);
    const eye = cam.eye();
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

    for (const m of Object.values(GL.meshes)) m.n = 0;
    const ln = [];
    const seg = (a, b, c) => ln.push(a[0], a[1], a[2], c[0], c[1], c[2], b[0], b[1], b[2], c[0], c[1], c[2]);
    const user = userColors();
    // whole models for a few hundred robots; beyond, a point each
    const detail = sc.robots.length <= 400;
    let np = 0;
    if (!detail && GL.pointData.length < 7 * sc.robots.length) GL.pointData = new Float32Array(7 * sc.robots.length);
    const PD = GL.pointData, P = F.pose;
    for (let k = 0; k < sc.bodies.length; k++) {
      const b = sc.bodies[k];
      if (b.robot >= 0 && !detail) {
        const i = b.robot, rb = sc.robots[i], u = user.get(i), m = 4 * sc.slot[k];
        const ov = S.override && S.override.body === k ? S.override : null;
        const c = u ? u.int : F.lit[i] >= 0 ? F.lit[i] : typeColor[rb.type] || 0x3d7ec9;
        const o = 7 * np++;
        PD[o] = ov ? ov.x : P[m]; PD[o + 1] = ov ? ov.y : P[m + 1]; PD[o + 2] = P[m + 2] + b.h / 2; PD[o + 3] = b.r;
        PD[o + 4] = ((c >> 16) & 255) / 255; PD[o + 5] = ((c >> 8) & 255) / 255; PD[o + 6] = (c & 255) / 255;
        if (rb.type === "eye-bot" && P[m + 2] > 0.01) seg([PD[o], PD[o + 1], P[m + 2]], [PD[o], PD[o + 1], 0.001], [0.25, 0.26, 0.3]);
        if (rb.id === S.selected) add("cyl", PD[o], PD[o + 1], P[m + 2], 0, b.r * 1.6, b.r * 1.6, 0.003, [1, 0.83, 0], true);
        S.drawn++;
        continue;
      }
      const ps = pose(k);
      const m = b.shape === "disc" ? "cyl" : "box";
      const sx = b.shape === "disc" ? b.r : b.hx, sy = b.shape === "disc" ? b.r : b.hy;
      if (b.robot < 0) {
        add(m, ps[0], ps[1], ps[2], ps[3], sx, sy, b.h, b.movable ? WOOD : GREY);
        if (S.selectedObject === k) add(m, ps[0], ps[1], ps[2], ps[3], sx * 1.08 + 0.01, sy * 1.08 + 0.01, 0.003, [1, 0.83, 0], true);
        continue;
      }
      const rb = sc.robots[b.robot], u = user.get(b.robot);
      const col = u ? u.rgb : css(robotColor[rb.type] || "#3d7ec9");
      robot3D(b, rb, ps, ledsOf(b.robot), col);
      if (rb.type === "eye-bot" && ps[2] > 0.01) seg([ps[0], ps[1], ps[2]], [ps[0], ps[1], 0.001], [0.25, 0.26, 0.3]);
      if (rb.id === S.selected) add("cyl", ps[0], ps[1], ps[2], 0, b.r * 1.25, b.r * 1.25, 0.003, [1, 0.83, 0], true);
      S.drawn++;
    }
    // lights: a sphere that keeps a few pixels whatever the distance
    const pxAt = (x, y, z) => (Math.hypot(x - eye[0], y - eye[1], z - eye[2]) * 2 * Math.tan(cam.fov / 2)) / Math.max(1, rc.height);
    for (const l of sc.lights) {
      const s = Math.max(0.04, 5 * pxAt(l.p[0], l.p[1], l.p[2]));
      add("sphere", l.p[0], l.p[1], l.p[2], 0, s, s, s, css(l.color), true);
      seg([l.p[0], l.p[1], l.p[2]], [l.p[0], l.p[1], 0.001], [0.85, 0.8, 0.35]);
    }
    for (const [x, y, z, c] of F.objLEDs) add("sphere", x, y, z, 0, 0.015, 0.015, 0.015, rgb(c), true);
    for (const [x, y, z, rad, c] of F.spots) add("lowcyl", x, y, z + 0.001, 0, rad, rad, 0.002, rgb(c), true);
    // the user functions' drawing
    const D = F.drawing || [];
    for (const it of D) {
      const p = it.p && it.p[0];
      switch (it.kind) {
        case 1: { const s = Math.max(it.size / 2, 1) * pxAt(p[0], p[1], p[2]); add("sphere", p[0], p[1], p[2], 0, s, s, s, it.rgb, true); break; }
        case 2: for (let j = 1; j < it.p.length; j++) seg(it.p[j - 1], it.p[j], it.rgb); break;
        case 3:
          if (it.fill) add("cyl", p[0], p[1], p[2] + 0.001, 0, it.radius, it.radius, 0.002, it.rgb, true);
          else for (let j = 0; j < 48; j++) {
            const a0 = (2 * Math.PI * j) / 48, a1 = (2 * Math.PI * (j + 1)) / 48;
            seg([p[0] + Math.cos(a0) * it.radius, p[1] + Math.sin(a0) * it.radius, p[2] + 0.002], [p[0] + Math.cos(a1) * it.radius, p[1] + Math.sin(a1) * it.radius, p[2] + 0.002], it.rgb);
          }
          break;
        case 4: {
          const [bx, by, bz] = it.size3;
          if (it.fill) { add("box", p[0], p[1], p[2], it.yaw, bx / 2, by / 2, Math.max(bz, 0.002), it.rgb, true); break; }
          const c = Math.cos(it.yaw), s = Math.sin(it.yaw);
          const corner = (i, z) => { const lx = (i === 0 || i === 3 ? 0.5 : -0.5) * bx, ly = (i < 2 ? 0.5 : -0.5) * by; return [p[0] + c * lx - s * ly, p[1] + s * lx + c * ly, p[2] + z]; };
          for (let i = 0; i < 4; i++) {
            seg(corner(i, 0.002), corner((i + 1) % 4, 0.002), it.rgb);
            if (bz > 0) { seg(corner(i, bz), corner((i + 1) % 4, bz), it.rgb); seg(corner(i, 0.002), corner(i, bz), it.rgb); }
          }
          break;
        }
      }
    }
    gl.useProgram(GL.mesh);
    gl.uniformMatrix4fv(gl.getUniformLocation(GL.mesh, "uVP"), false, VP);
    for (const m of Object.values(GL.meshes)) {
      if (!m.n) continue;
      gl.bindVertexArray(m.vao);
      gl.bindBuffer(gl.ARRAY_BUFFER, m.ib);
      gl.bufferData(gl.ARRAY_BUFFER, m.inst.subarray(0, m.n * 11), gl.DYNAMIC_DRAW);
      gl.drawArraysInstanced(gl.TRIANGLES, 0, m.count, m.n);
    }
    if (np) {
      gl.useProgram(GL.points);
      gl.uniformMatrix4fv(gl.getUniformLocation(GL.points, "uVP"), false, VP);
      gl.uniform1f(gl.getUniformLocation(GL.points, "uScale"), glc.height / Math.tan(cam.fov / 2));
      gl.bindVertexArray(GL.pointVAO);
      gl.bindBuffer(gl.ARRAY_BUFFER, GL.pointBuf);
      gl.bufferData(gl.ARRAY_BUFFER, PD.subarray(0, 7 * np), gl.DYNAMIC_DRAW);
      gl.drawArrays(gl.POINTS, 0, np);
    }
    // lines: the grid (its spacing scaled to the arena), rays, links
    const step = niceStep(Math.max(sc.size[0], sc.size[1]), 16);
    S.gridStep = step;
    const gc = [0.82, 0.83, 0.85];
    for (let x = Math.ceil(lo[0] / step) * step; x <= hi[0] + 1e-9; x += step) seg([x, lo[1], 0.001], [x, hi[1], 0.001], gc);
    for (let y = Math.ceil(lo[1] / step) * step; y <= hi[1] + 1e-9; y += step) seg([lo[0], y, 0.001], [hi[0], y, 0.001], gc);
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
    // ids and texts, on the canvas over the 3D view
    const W = rc.width, H = rc.height;
    lctx.font = "11px system-ui, sans-serif";
    lctx.textAlign = "center";
    S.labels3D = 0;
    if ($("labels").checked && sc.robots.length <= 2000) {
      for (const rb of sc.robots) {
        const b = sc.bodies[rb.body], ps = pose(rb.body);
        if (b.r / pxAt(ps[0], ps[1], ps[2]) < 6) continue;
        const s = project(VP, ps[0], ps[1], ps[2] + modelTop(rb, b) + 0.02, W, H);
        if (!s || s[0] < 0 || s[0] > W || s[1] < 0 || s[1] > H) continue;
        const w = lctx.measureText(rb.id).width;
        lctx.fillStyle = "rgba(20,22,26,0.6)";
        lctx.fillRect(s[0] - w / 2 - 2, s[1] - 11, w + 4, 14);
        lctx.fillStyle = "#fff";
        lctx.fillText(rb.id, s[0], s[1]);
        S.labels3D++;
      }
    }
    drawUserText3D(VP, W, H);
  }
  function drawUserText3D(VP, W, H) {
    const D = S.F.drawing;
    if (!D) return;
    lctx.textAlign = "center";
    lctx.font = "bold 12px system-ui, sans-serif";
    for (const it of D) {
      let s = null;
      if (it.kind === 5) s = project(VP, it.p[0][0], it.p[0][1], it.p[0][2], W, H);
      else if (it.kind === 6) {
        const rb = S.scene.robots[it.robot];
        if (!rb) continue;
        const b = S.scene.bodies[rb.body], ps = pose(rb.body);
        s = project(VP, ps[0], ps[1], ps[2] + modelTop(rb, b) + 0.02, W, H);
        if (s) s[1] -= $("labels").checked ? 16 : 0;
      } else continue;
      if (!s) continue;
      const w = lctx.measureText(it.text).width;
      lctx.fillStyle = "rgba(255,255,255,0.75)";
      lctx.fillRect(s[0] - w / 2 - 2, s[1] - 11, w + 4, 14);
      lctx.fillStyle = it.color;
      lctx.fillText(it.text, s[0], s[1]);
    }
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
  function fmt(v, key) {
    if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(3);
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (v === null || v === undefined || v === "") return key === "held" ? "nothing" : "–";
    if (Array.isArray(v)) return v.length ? v.map((x) => fmt(x)).join(" ") : "–";
    if (typeof v === "object") return Object.entries(v).map(([k, x]) => k + ": " + fmt(x, k)).join(", ");
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
    if (S.selectedObject !== null && S.scene && S.F) {
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
    for (const c of m.leds) { const s = el("span", "swatch" + (c === "#000000" ? " off" : "")); s.style.background = c === "#000000" ? OFF_LED : c; s.title = c === "#000000" ? "off" : c; swatches.appendChild(s); }
    const rows = [
      ["controller", m.controller + " (" + m.label + ")"],
      ["x, y, z (m)", m.pose.slice(0, 3).map((x) => x.toFixed(3)).join(", ")],
      ["yaw (°)", m.pose[3].toFixed(1)],
    ];
    if (m.wheels_m_s) rows.push(["wheels (m/s)", m.wheels_m_s.map((x) => x.toFixed(3)).join(", ")]);
    rows.push(["LEDs", m.leds.length ? swatches : "–"]);
    box.appendChild(table(rows));
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
        if (rest.length) sec.appendChild(table(rest.map(([k, x]) => [k, fmt(x, k)])));
      } else if (v && typeof v === "object" && !Array.isArray(v)) {
        sec.appendChild(table(Object.entries(v).map(([k, x]) => [k, fmt(x, k)])));
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
  function selectObject(k) {
    S.selected = ""; S.inspect = null;
    S.selectedObject = k;
    $("robot-select").value = "";
    send({ cmd: "select", id: S.scene.bodies[k].id });
    renderInspect();
  }
  function deselect() {
    if (!S.selected && S.selectedObject === null) return;
    S.selected = ""; S.selectedObject = null; S.inspect = null;
    $("robot-select").value = "";
    send({ cmd: "select", id: "" });
    renderInspect();
  }

  // ---------- mouse: select, move, turn ----------
  function floorPoint(ev) {
    const c = S.view === "top" ? top : glc;
    const r = c.getBoundingClientRect();
    const sx = ev.clientX - r.left, sy = ev.clientY - r.top;
    if (S.view === "top") return s2w(sx, sy);
    return rayToPlane(sx, sy, 0.07);
  }
  function selectedBody() {
    if (S.selected && S.scene.robotByID.has(S.selected)) return S.scene.robots[S.scene.robotByID.get(S.selected)].body;
    return S.selectedObject !== null ? S.selectedObject : -1;
  }
  function onDown(ev) {
    if (!S.scene || !S.F) return;
    ev.preventDefault();
    window.focus();
    if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
    const p = floorPoint(ev);
    if (p && ev.button === 0) {
      // the turning handle of the selected body
      const sb = selectedBody();
      if (S.view === "top" && sb >= 0 && S.scene.bodies[sb].movable) {
        const h = handle(sb);
        if (Math.hypot(p[0] - h[0], p[1] - h[1]) * view2.scale <= 8) {
          const ps = pose(sb);
          S.drag = { body: sb, id: S.scene.bodies[sb].id, mode: "turn", x: ps[0], y: ps[1], yaw: ps[3], moved: false };
          return;
        }
      }
      const k = pick(p[0], p[1], S.view === "top" ? 3 / view2.scale : 0.01);
      if (k >= 0) {
        const b = S.scene.bodies[k];
        if (b.robot >= 0) select(S.scene.robots[b.robot].id);
        else selectObject(k);
        if (b.movable) {
          const ps = pose(k);
          S.drag = { body: k, id: b.id, mode: ev.shiftKey ? "turn" : "move", dx: ps[0] - p[0], dy: ps[1] - p[1], x: ps[0], y: ps[1], yaw: ps[3], moved: false, sx: ev.clientX, sy: ev.clientY };
        }
        requestDraw();
        return;
      }
    }
    S.pan = { x: ev.clientX, y: ev.clientY, button: ev.button, cx: view2.cx, cy: view2.cy, az: cam.az, el: cam.el, tx: cam.tx, ty: cam.ty, moved: false };
  }
  function onMove(ev) {
    const g = S.drag;
    if (g) {
      const p = floorPoint(ev);
      if (!p) return;
      if (!g.moved && g.mode === "move" && Math.abs(ev.clientX - g.sx) + Math.abs(ev.clientY - g.sy) < 4) return;
      g.moved = true;
      if (g.mode === "turn") g.yaw = Math.atan2(p[1] - g.y, p[0] - g.x);
      else { g.x = p[0] + g.dx; g.y = p[1] + g.dy; }
      S.override = { body: g.body, x: g.x, y: g.y, yaw: g.yaw, ok: S.override && S.override.body === g.body ? S.override.ok : true };
      // ask the simulator whether the drop would be accepted
      const now = performance.now();
      if (!g.lastCheck || now - g.lastCheck > 80) {
        g.lastCheck = now;
        send({ cmd: "check", id: g.id, x: g.x, y: g.y, yaw: g.yaw, seq: ++S.checkSeq });
      }
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
      cam.up = null;
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
  function onCheck(m) {
    const ov = S.override;
    if (!ov || !S.drag || m.seq !== S.checkSeq) return;
    ov.ok = m.ok;
    $("drop").textContent = m.ok ? "" : m.message;
    $("drop").hidden = m.ok;
  }
  function onUp(ev) {
    const g = S.drag;
    if (g) {
      S.drag = null;
      $("drop").hidden = true;
      if (g.moved) {
        // the simulator moves the body, or refuses and says why; until
        // its next frame the body is shown where it was dropped
        S.override = { body: g.body, x: g.x, y: g.y, yaw: g.yaw, ok: true, sent: true };
        const cmd = { cmd: "move", id: g.id, yaw: g.yaw };
        if (g.mode === "move") { cmd.x = g.x; cmd.y = g.y; }
        send(cmd);
      } else S.override = null;
    } else if (S.pan && !S.pan.moved && S.pan.button === 0) {
      deselect(); // a click on the floor clears the selection
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
      view2.scale = Math.min(5000, Math.max(1, view2.scale * f));
      const after = s2w(ev.clientX - r.left, ev.clientY - r.top);
      view2.cx += before[0] - after[0];
      view2.cy += before[1] - after[1];
    } else {
      cam.dist = Math.min(1000, Math.max(0.05, cam.dist / f));
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
    lab.hidden = v === "top";
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
      const rb = S.scene.robots[S.scene.robotByID.get(S.selected)];
      if (rb) { const ps = pose(rb.body); view2.cx = ps[0]; view2.cy = ps[1]; view2.scale = Math.max(view2.scale, 400); }
    } else {
      cam.follow = true;
      cam.up = null;
      cam.dist = 1.2;
      cam.el = 0.6;
    }
    requestDraw();
  };
  $("rays").onchange = () => { sendOverlay(); requestDraw(); };
  $("rab").onchange = () => { sendOverlay(); requestDraw(); };
  $("labels").onchange = requestDraw;
  $("robot-select").onchange = () => select($("robot-select").value);

  // ---------- keys ----------
  // Arrows and letters go to the simulator's user functions (ARGoS's
  // KeyPressed and KeyReleased) while no input field has the focus; space
  // plays and pauses, and n and r step and reset unless the user
  // functions take keys.
  const arrows = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);
  const isField = (t) => t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement || (t && t.isContentEditable);
  const isUserKey = (k) => arrows.has(k) || /^[a-zA-Z]$/.test(k);
  function releaseKeys() {
    for (const k of S.keys.values()) send({ cmd: "key", key: k, down: false });
    S.keys.clear();
  }
  window.addEventListener("keydown", (ev) => {
    if (isField(ev.target) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const userKeys = S.scene && S.scene.user_keys;
    if (ev.key === " ") { ev.preventDefault(); send({ cmd: S.F && S.F.playing ? "pause" : "play" }); return; }
    if (!userKeys && ev.key === "n") { send({ cmd: "step" }); return; }
    if (!userKeys && ev.key === "r") { send({ cmd: "reset" }); return; }
    if (!isUserKey(ev.key)) return;
    if (arrows.has(ev.key)) ev.preventDefault();
    if (ev.repeat || S.keys.has(ev.code)) return;
    S.keys.set(ev.code, ev.key);
    send({ cmd: "key", key: ev.key, down: true });
  });
  window.addEventListener("keyup", (ev) => {
    const k = S.keys.get(ev.code);
    if (k === undefined) return;
    S.keys.delete(ev.code);
    send({ cmd: "key", key: k, down: false });
  });
  window.addEventListener("blur", releaseKeys);
  document.addEventListener("visibilitychange", () => { if (document.hidden) releaseKeys(); });

  // for tests, benchmarks and curious users
  window.argosViewer = {
    state: S,
    // where a point of the arena is on the page
    worldToPage(x, y, z) {
      if (S.view === "top") {
        const r = top.getBoundingClientRect(), s = w2s(x, y);
        return { x: r.left + s[0], y: r.top + s[1] };
      }
      const r = glc.getBoundingClientRect();
      const s = project(viewProj(r.width / r.height), x, y, z || 0, r.width, r.height);
      return s ? { x: r.left + s[0], y: r.top + s[1] } : null;
    },
    // pose of an entity as the page has it: [x, y, z, yaw]
    pose(id) {
      if (!S.scene || !S.F) return null;
      const k = S.scene.bodies.findIndex((b) => b.id === id);
      return k < 0 ? null : Array.from(pose(k));
    },
    handle() { const k = selectedBody(); return k < 0 ? null : handle(k); },
    robotsDrawn: () => S.drawn,
    glReady: () => GL.ok,
    camera: () => ({ index: cam.current, eye: cam.eye(), target: [cam.tx, cam.ty, cam.tz], fovy: (cam.fov * 180) / Math.PI, up: cam.up }),
    // center shows the top view around (x, y), scale pixels a metre
    center(x, y, scale) {
      setView("top");
      view2.cx = x; view2.cy = y; view2.scale = scale;
      requestDraw();
    },
    // look puts the 3D camera at eye, looking at target
    look(eye, target, fovy) {
      setView("3d");
      cam.placement({ position: eye, look_at: target, up: null, fovy: fovy || 45, index: undefined });
      requestDraw();
    },
    // the spacing of the floor grid in the view drawn last, in metres
    gridStep: () => S.gridStep,
    // the robot ids drawn over the 3D view last
    labels3D: () => S.labels3D,
    // bench decodes the last full frame and draws the view n times; it
    // returns the milliseconds each took, the drawing forced out to
    // pixels (a read of one pixel waits for the rasterizer)
    bench(n) {
      if (!S.lastFull) return null;
      let dec = 0, draw = 0;
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        S.F = null;
        decodeFrame(S.lastFull.slice(0));
        const t1 = performance.now();
        if (S.view === "top") { drawTop(); ctx.getImageData(0, 0, 1, 1); }
        else { drawGL(); GL.gl.readPixels(0, 0, 1, 1, GL.gl.RGBA, GL.gl.UNSIGNED_BYTE, new Uint8Array(4)); }
        dec += t1 - t0;
        draw += performance.now() - t1;
      }
      return { decode_ms: dec / n, draw_ms: draw / n, frame_bytes: S.lastFull.byteLength, robots: S.drawn };
    },
  };
  connect();
})();
