// The 3D view: a small WebGL2 renderer that draws every visible block as an instanced cube,
// the bot, players and mobs as boxes with name labels, and a yellow frame around the thing
// picked in the memory panel. An orbit camera turns with the mouse and can follow the bot.
//
// Coordinates are Minecraft's: x east, y up, z south (right-handed, like OpenGL's).

const VERTEX = `#version 300 es
layout(location = 0) in vec3 a_corner;   // a unit cube's corner, 0..1
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 i_at;       // the box's lowest corner
layout(location = 3) in vec4 i_colour;
layout(location = 4) in vec3 i_size;
uniform mat4 u_camera;
out vec4 v_colour;
out vec3 v_local;
out vec3 v_size;
flat out vec3 v_normal;
void main() {
  gl_Position = u_camera * vec4(i_at + a_corner * i_size, 1.0);
  v_local = a_corner * i_size;
  v_size = i_size;
  v_normal = a_normal;
  // Tops brightest, then the sides facing the light: enough to see shapes, no textures.
  float light = 0.62 + 0.28 * max(dot(a_normal, normalize(vec3(0.35, 1.0, 0.55))), 0.0) + 0.1 * a_normal.y;
  v_colour = vec4(i_colour.rgb * light, i_colour.a);
}`;

const FRAGMENT = `#version 300 es
precision mediump float;
in vec4 v_colour;
in vec3 v_local;
in vec3 v_size;
flat in vec3 v_normal;
out vec4 colour;
void main() {
  // A thin darker line along each face's edges, so single blocks can be counted.
  vec3 d = min(v_local, v_size - v_local) + abs(v_normal) * 100.0;
  float edge = min(d.x, min(d.y, d.z));
  float w = fwidth(edge);
  float k = mix(0.8, 1.0, smoothstep(0.03 - w, 0.03 + w, edge));
  colour = vec4(v_colour.rgb * k, v_colour.a);
}`;

const SKY = [0.61, 0.79, 0.94];
const FLOATS = 10; // per instance: at (3), colour (4), size (3)
const SEE_THROUGH = 1 << 24;

// A unit cube as 12 triangles, each vertex with its face's normal.
function cubeVertices() {
  const faces = [
    [[1, 0, 0], [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]]],
    [[-1, 0, 0], [[0, 0, 1], [0, 1, 1], [0, 1, 0], [0, 0, 0]]],
    [[0, 1, 0], [[0, 1, 1], [1, 1, 1], [1, 1, 0], [0, 1, 0]]],
    [[0, -1, 0], [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]]],
    [[0, 0, 1], [[1, 0, 1], [1, 1, 1], [0, 1, 1], [0, 0, 1]]],
    [[0, 0, -1], [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]]],
  ];
  const out = [];
  for (const [n, q] of faces) {
    for (const i of [0, 1, 2, 0, 2, 3]) out.push(...q[i], ...n);
  }
  return new Float32Array(out);
}

// --- 4×4 matrices, column-major as WebGL wants them ---
function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  const nf = 1 / (near - far);
  return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0];
}
function lookAt(eye, at, up) {
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const norm = (v) => { const l = Math.hypot(...v) || 1; return v.map((x) => x / l); };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const z = norm(sub(eye, at));
  const x = norm(cross(up, z));
  const y = cross(z, x);
  return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
}
function multiply(a, b) {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

function rgba(colour, alpha) {
  return [((colour >> 16) & 255) / 255, ((colour >> 8) & 255) / 255, (colour & 255) / 255, alpha];
}

export class View3D {
  constructor(canvas, labels) {
    this.canvas = canvas;
    this.labels = labels;
    this.blocks = new Map(); // "x,y,z" -> colour
    this.bodies = { bot: null, players: [], mobs: [] };
    this.highlighted = null; // [[min], [max]]
    this.follow = true;
    this.camera = { target: [0.5, 5, 0.5], yaw: 0.8, pitch: 0.6, distance: 28 };
    this.dirty = true;
    this.gl = canvas.getContext('webgl2', { antialias: true });
    if (!this.gl) return;
    this.setUp();
    this.listen();
    const frame = () => { this.draw(); requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
  }

  get works() { return !!this.gl; }

  setUp() {
    const gl = this.gl;
    const shader = (type, src) => {
      const s = gl.createShader(type);
      gl.shaderSource(s, src);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
      return s;
    };
    const p = gl.createProgram();
    gl.attachShader(p, shader(gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(p, shader(gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
    this.program = p;
    this.uCamera = gl.getUniformLocation(p, 'u_camera');
    this.cube = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.cube);
    gl.bufferData(gl.ARRAY_BUFFER, cubeVertices(), gl.STATIC_DRAW);
    // Three instance sets: solid blocks, see-through blocks, and everything that moves.
    this.sets = ['solid', 'clear', 'moving'].map(() => this.instanceSet());
    gl.enable(gl.DEPTH_TEST);
    gl.enable(gl.CULL_FACE);
  }

  instanceSet() {
    const gl = this.gl;
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.cube);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
    const buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    const attr = (loc, n, offset) => {
      gl.enableVertexAttribArray(loc);
      gl.vertexAttribPointer(loc, n, gl.FLOAT, false, FLOATS * 4, offset * 4);
      gl.vertexAttribDivisor(loc, 1);
    };
    attr(2, 3, 0);
    attr(3, 4, 3);
    attr(4, 3, 7);
    gl.bindVertexArray(null);
    return { vao, buffer, count: 0 };
  }

  upload(set, data) {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, set.buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(data), gl.DYNAMIC_DRAW);
    set.count = data.length / FLOATS;
  }

  // Blocks: `reset` replaces all; `set` is [[x, y, z, colour]], `clear` is [[x, y, z]].
  applyBlocks(reset, set, clear) {
    if (reset) this.blocks.clear();
    for (const [x, y, z, c] of set) this.blocks.set(`${x},${y},${z}`, c);
    for (const [x, y, z] of clear) this.blocks.delete(`${x},${y},${z}`);
    this.dirty = true;
  }

  setBodies(bodies) {
    this.bodies = bodies;
    if (this.follow && bodies.bot) {
      this.camera.target = [bodies.bot.x, bodies.bot.y + 1, bodies.bot.z];
    }
  }

  // Frames the box [min, max] (inclusive block corners) in yellow, or nothing with null.
  highlight(box) {
    this.highlighted = box;
    if (box) {
      const [a, b] = box;
      this.follow = false;
      this.camera.target = [(a[0] + b[0] + 1) / 2, (a[1] + b[1] + 1) / 2, (a[2] + b[2] + 1) / 2];
      this.onFollowChange?.(false);
    }
  }

  setFollow(on) {
    this.follow = on;
    if (on) this.setBodies(this.bodies);
  }

  rebuildBlocks() {
    const solid = [];
    const clear = [];
    for (const [key, c] of this.blocks) {
      const [x, y, z] = key.split(',').map(Number);
      const see = (c & SEE_THROUGH) !== 0;
      (see ? clear : solid).push(x, y, z, ...rgba(c, see ? 0.45 : 1), 1, 1, 1);
    }
    this.upload(this.sets[0], solid);
    this.upload(this.sets[1], clear);
    this.dirty = false;
  }

  movingInstances() {
    const out = [];
    const body = (b, colour, w, h) => out.push(b.x - w / 2, b.y, b.z - w / 2, ...colour, w, h, w);
    if (this.bodies.bot) body(this.bodies.bot, [0.16, 0.42, 0.85, 1], 0.6, 1.8);
    for (const p of this.bodies.players) body(p, [0.93, 0.62, 0.25, 1], 0.6, 1.8);
    for (const m of this.bodies.mobs) body(m, [0.95, 0.7, 0.75, 1], 0.9, 0.9);
    if (this.highlighted) {
      // Twelve thin bars along the edges of the box.
      const [a, b] = this.highlighted;
      const lo = a.map((v) => v - 0.05);
      const hi = b.map((v) => v + 1.05);
      const t = 0.1;
      const yellow = [1, 0.85, 0.1, 1];
      for (const y of [lo[1], hi[1] - t]) for (const z of [lo[2], hi[2] - t]) out.push(lo[0], y, z, ...yellow, hi[0] - lo[0], t, t);
      for (const x of [lo[0], hi[0] - t]) for (const z of [lo[2], hi[2] - t]) out.push(x, lo[1], z, ...yellow, t, hi[1] - lo[1], t);
      for (const x of [lo[0], hi[0] - t]) for (const y of [lo[1], hi[1] - t]) out.push(x, y, lo[2], ...yellow, t, t, hi[2] - lo[2]);
    }
    return out;
  }

  matrix() {
    const c = this.camera;
    const eye = [
      c.target[0] + c.distance * Math.cos(c.pitch) * Math.sin(c.yaw),
      c.target[1] + c.distance * Math.sin(c.pitch),
      c.target[2] + c.distance * Math.cos(c.pitch) * Math.cos(c.yaw),
    ];
    const aspect = this.canvas.width / Math.max(1, this.canvas.height);
    return multiply(perspective(Math.PI / 3.2, aspect, 0.1, 500), lookAt(eye, c.target, [0, 1, 0]));
  }

  draw() {
    const gl = this.gl;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.floor(this.canvas.clientWidth * dpr);
    const h = Math.floor(this.canvas.clientHeight * dpr);
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    if (this.dirty) this.rebuildBlocks();
    this.upload(this.sets[2], this.movingInstances());
    gl.viewport(0, 0, w, h);
    gl.clearColor(...SKY, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.useProgram(this.program);
    const m = this.matrix();
    gl.uniformMatrix4fv(this.uCamera, false, new Float32Array(m));
    const drawSet = (s) => {
      if (!s.count) return;
      gl.bindVertexArray(s.vao);
      gl.drawArraysInstanced(gl.TRIANGLES, 0, 36, s.count);
    };
    drawSet(this.sets[0]);
    drawSet(this.sets[2]);
    // See-through blocks last, blended, without hiding what is behind them.
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.depthMask(false);
    drawSet(this.sets[1]);
    gl.depthMask(true);
    gl.disable(gl.BLEND);
    gl.bindVertexArray(null);
    this.placeLabels(m);
  }

  // Name labels above the bot and the players, as page elements over the canvas.
  placeLabels(m) {
    const named = [];
    if (this.bodies.bot) named.push([this.bodies.bot, 'label bot']);
    for (const p of this.bodies.players) named.push([p, 'label']);
    while (this.labels.children.length < named.length) this.labels.appendChild(document.createElement('div'));
    while (this.labels.children.length > named.length) this.labels.lastChild.remove();
    named.forEach(([b, cls], i) => {
      const el = this.labels.children[i];
      const [x, y, z] = [b.x, b.y + 2.1, b.z];
      const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
      const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
      const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
      el.className = cls;
      el.textContent = b.name;
      el.hidden = cw <= 0;
      el.style.left = `${((cx / cw + 1) / 2) * this.canvas.clientWidth}px`;
      el.style.top = `${((1 - cy / cw) / 2) * this.canvas.clientHeight}px`;
    });
  }

  listen() {
    const c = this.canvas;
    let drag = null;
    c.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, pan: e.shiftKey || e.button === 2 };
      c.setPointerCapture(e.pointerId);
    });
    c.addEventListener('pointerup', () => { drag = null; });
    c.addEventListener('contextmenu', (e) => e.preventDefault());
    c.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      drag.x = e.clientX;
      drag.y = e.clientY;
      const cam = this.camera;
      if (drag.pan) {
        // Move the point looked at along the ground, in the direction the view faces.
        const s = cam.distance / 400;
        const [sin, cos] = [Math.sin(cam.yaw), Math.cos(cam.yaw)];
        cam.target = [cam.target[0] - (dx * cos - dy * sin) * s, cam.target[1], cam.target[2] - (-dx * sin - dy * cos) * s];
        this.follow = false;
        this.onFollowChange?.(false);
      } else {
        cam.yaw -= dx * 0.008;
        cam.pitch = Math.min(1.5, Math.max(0.05, cam.pitch + dy * 0.008));
      }
    });
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.camera.distance = Math.min(200, Math.max(4, this.camera.distance * Math.exp(e.deltaY * 0.001)));
    }, { passive: false });
  }
}
