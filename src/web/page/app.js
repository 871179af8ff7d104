// The web view's page: one WebSocket to the bot, the 3D view, and the panels (chat, what it
// understood, tasks, memory). Messages from the bot are JSON objects tagged by "t"; see
// src/web/message.rs for the list.

import { View3D } from './view3d.js';

const $ = (id) => document.getElementById(id);
const view = new View3D($('view'), $('labels'));
if (!view.works) $('no-webgl').hidden = false;
view.onFollowChange = (on) => { $('follow').checked = on; };
$('follow').addEventListener('change', (e) => view.setFollow(e.target.checked));

let socket = null;
let me = { bot: 'the bot', you: 'you', mode: 'play' };
let picked = null; // the memory id highlighted

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function badge(kind, text) {
  return el('span', { class: `badge ${kind}` }, text ?? kind.replace('_', ' '));
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// --- chat ---
function addChat(lines) {
  const log = $('chat-log');
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 30;
  for (const l of lines) {
    const cls = [l.bot ? 'bot' : '', l.refused ? 'refused' : ''].join(' ');
    log.append(el('li', { class: cls }, el('span', { class: 'who' }, `<${l.who}>`), l.text));
  }
  while (log.children.length > 300) log.firstChild.remove();
  if (atBottom) log.scrollTop = log.scrollHeight;
}

$('chat-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = $('chat-input');
  const text = input.value.trim();
  if (!text) return;
  send({ t: 'say', text });
  input.value = '';
});

// --- what it understood ---
function showUnderstood(line) {
  const box = $('understood');
  box.replaceChildren();
  box.append(el('p', {}, el('span', { class: 'said' }, `<${line.speaker}> ${line.said}`), ' ', badge(line.outcome)));
  const facts = [];
  if (line.read_as !== null && line.read_as !== line.said.toLowerCase()) facts.push(`read as “${line.read_as}”`);
  if (line.confidence !== null) facts.push(`confidence ${Math.round(line.confidence * 100)} %`);
  if (line.source) facts.push(`from the ${line.source}`);
  if (line.parse_ms !== null) facts.push(`read in ${line.parse_ms.toFixed(1)} ms`);
  for (const [typed, meant] of line.fixes) facts.push(`“${typed}” taken as “${meant}”`);
  if (facts.length) box.append(el('p', { class: 'facts' }, facts.join(' · ')));
  if (line.form) box.append(el('pre', { class: 'form' }, JSON.stringify(line.form, null, 2)));
}

// --- tasks ---
function showTasks(stack) {
  const box = $('tasks');
  box.replaceChildren();
  if (!stack.length) {
    box.append(el('p', { class: 'empty' }, 'Nothing to do.'));
    return;
  }
  for (const t of stack) {
    const row = el('div', { class: 'task', 'data-state': t.state }, badge(t.state), ' ', t.description);
    if (t.total) {
      const pct = Math.round((100 * t.done) / t.total);
      row.append(el('div', { class: 'step' }, `${t.done} of ${t.total} blocks`));
      const bar = el('div', { class: 'progress' }, el('div'));
      bar.firstChild.style.width = `${pct}%`;
      row.append(bar);
    }
    if (t.step) row.append(el('div', { class: 'step' }, t.step));
    box.append(row);
  }
}
$('stop').addEventListener('click', () => send({ t: 'stop' }));
$('resume').addEventListener('click', () => send({ t: 'resume' }));

// --- memory ---
function hex(colourWord) {
  const dyes = {
    white: '#f9fffe', orange: '#f9801d', magenta: '#c74ebd', light_blue: '#3ab3da', yellow: '#fed83d',
    lime: '#80c71f', pink: '#f38baa', gray: '#474f52', light_gray: '#9d9d97', cyan: '#169c9c',
    purple: '#8932b8', blue: '#3c44aa', brown: '#835432', green: '#5e7c16', red: '#b02e26', black: '#1d1d21',
  };
  return dyes[colourWord] ?? '#a0a0a0';
}

function showMemory(view3d, memory) {
  const list = $('memory');
  list.replaceChildren();
  if (!memory.objects.length) list.append(el('li', { class: 'empty' }, 'Nothing remembered yet.'));
  for (const o of memory.objects) {
    const [w, h, d] = o.size;
    const li = el('li', { 'data-id': o.id, class: o.id === picked ? 'picked' : '', title: 'show it in the view' },
      o.colour ? el('span', { class: 'swatch' }) : null,
      el('strong', {}, o.the),
      ` — ${w}×${h}×${d}, ${o.blocks} ${o.kind === 'hole' ? 'cells' : 'blocks'}, at (${o.min.join(', ')})`,
      o.tags.length ? el('span', { class: 'tags' }, ` [${o.tags.join(', ')}]`) : null);
    if (o.colour) li.firstChild.style.background = hex(o.colour);
    li.addEventListener('click', () => {
      picked = picked === o.id ? null : o.id;
      view3d.highlight(picked === null ? null : [o.min, o.max]);
      for (const other of list.children) other.classList.toggle('picked', Number(other.dataset.id) === picked);
    });
    list.append(li);
  }
  if (memory.more) list.append(el('li', { class: 'empty' }, `and ${memory.more} more further away`));
  if (picked !== null && !memory.objects.some((o) => o.id === picked)) {
    picked = null;
    view3d.highlight(null);
  }
  const places = $('places');
  places.replaceChildren();
  if (!memory.places.length) places.append(el('li', { class: 'empty' }, 'None yet ("call this spot home").'));
  for (const p of memory.places) places.append(el('li', {}, el('strong', {}, p.name), ` at (${p.pos.join(', ')})`));
  const recent = $('recent');
  recent.replaceChildren();
  if (!memory.recent.length) recent.append(el('li', { class: 'empty' }, 'Nothing done yet.'));
  for (const t of memory.recent) recent.append(el('li', { 'data-state': t.state }, badge(t.state), ' ', t.description));
}

// --- the socket ---
function setStatus(text, down = false) {
  $('status').textContent = text;
  $('status').classList.toggle('down', down);
}

function handle(m) {
  switch (m.t) {
    case 'hello':
      me = m;
      $('chat-log').replaceChildren();
      $('chat-input').placeholder = m.mode === 'connect'
        ? `Operator console: talk to ${m.bot} as ${m.you} (lines starting with / are not sent)`
        : `Say something to ${m.bot} as ${m.you}…`;
      setStatus(`connected to ${m.bot} · tick ${m.tick}`);
      break;
    case 'blocks': view.applyBlocks(m.reset, m.set, m.clear); break;
    case 'entities': view.setBodies({ bot: m.bot, players: m.players, mobs: m.mobs }); break;
    case 'chat': addChat(m.lines); break;
    case 'understood': showUnderstood(m.line); break;
    case 'tasks': showTasks(m.stack); break;
    case 'memory': showMemory(view, m.view); break;
    case 'status':
      setStatus(`connected to ${me.bot} · tick ${m.tick} · ${m.tick_ms.toFixed(2)} ms a tick · ${m.pages} page${m.pages === 1 ? '' : 's'}`);
      break;
    case 'note': $('chat-note').textContent = m.text; break;
    default: break;
  }
}

function connect() {
  const token = new URLSearchParams(location.search).get('token');
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  socket = new WebSocket(url);
  socket.addEventListener('message', (e) => handle(JSON.parse(e.data)));
  socket.addEventListener('close', () => {
    setStatus('not connected to the bot: trying again…', true);
    setTimeout(connect, 2000);
  });
}
connect();
