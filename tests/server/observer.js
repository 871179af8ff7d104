// Scriptable observer for craftmate's live tests: a mineflayer client that a test drives over stdin and
// stdout with JSON lines, to see the world as a second player does (blocks, players, chat) and to
// stand, look and talk where the test wants it.
//
// Usage: node tests/server/observer.js PORT NAME   (connects to 127.0.0.1:PORT as NAME, offline mode)
// Protocol (one JSON object a line; see README.md):
//   on spawn  {"event":"ready","pos":[x,y,z],"game_mode":"creative"}
//   request   {"id":N,"op":"chat"|"block"|"blocks"|"players"|"pos"|"look_at"|"teleport"|"chats"|
//                        "entities"|"inventory"|"collects"|"quit",...}
//   answer    {"id":N,"ok":true,...} or {"id":N,"ok":false,"error":"..."}
// Problems that are not answers (kicked, connection lost) go to stderr; fatal ones exit non-zero.
'use strict'

const readline = require('readline')
const mineflayer = require('mineflayer')
const { Vec3 } = require('vec3')

const port = parseInt(process.argv[2], 10)
const name = process.argv[3]
if (!(port > 0 && port < 65536) || !name) {
  process.stderr.write('usage: node observer.js PORT NAME\n')
  process.exit(2)
}

const SPAWN_TIMEOUT_MS = 30000
const OP_TIMEOUT_MS = 10000
const MAX_BOX_BLOCKS = 1000000
const ANGLE_STEP = 360 / 256 // degrees: angles travel to other players as one byte
const ANGLE_HAIR = ANGLE_STEP / 100

const warn = (msg) => process.stderr.write(`[observer ${name}] ${msg}\n`)
const send = (obj) => process.stdout.write(JSON.stringify(obj) + '\n')
const vec = (v) => [v.x, v.y, v.z]
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

let quitting = false
function die (code, msg) {
  if (msg) warn(msg)
  process.exit(code)
}

const bot = mineflayer.createBot({
  host: '127.0.0.1',
  port,
  username: name,
  auth: 'offline',
  version: '26.1',
  hideErrors: true,
  logErrors: false
})

const spawnTimer = setTimeout(() => die(3, `no spawn within ${SPAWN_TIMEOUT_MS} ms`), SPAWN_TIMEOUT_MS)

bot.on('error', (err) => warn('error: ' + (err && err.message ? err.message : err)))
bot.on('kicked', (reason) => die(4, 'kicked: ' + JSON.stringify(reason)))
bot.on('end', (reason) => (quitting ? process.exit(0) : die(5, 'connection ended: ' + reason)))

// Chat lines not yet handed out by `chats`. flying-squid relays player chat as system lines of the
// form `<name> text`; signed player chat arrives in the same form through mineflayer's messagestr.
let pendingChats = []
bot.on('messagestr', (text) => {
  const m = /^<([^>]+)> ([\s\S]*)$/.exec(text)
  if (m && m[1] !== bot.username) pendingChats.push({ from: m[1], text: m[2] })
})

// Pickups the server announced (its take-item packet) not yet handed out by `collects`: who took
// what. The item is read from the entity before it is removed.
let pendingCollects = []
bot._client.on('collect', (packet) => {
  const collector = bot.entities[packet.collectorEntityId]
  const item = droppedItem(bot.entities[packet.collectedEntityId])
  pendingCollects.push({
    by: collector ? (collector === bot.entity ? bot.username : collector.username || collector.name || null) : null,
    entity: packet.collectedEntityId,
    item: item ? item.name : null,
    count: packet.pickupItemCount
  })
})

// The stack an item entity holds, when the server said (flying-squid sends no metadata for
// dropped items, and mineflayer then fails to read it).
function droppedItem (e) {
  if (!e || !(e.name === 'item' || e.name === 'item_stack') || typeof e.getDroppedItem !== 'function') return null
  try {
    return e.getDroppedItem()
  } catch (err) {
    return null
  }
}

// What an entity is, for `entities`: players by name, dropped items with their stack.
function describeEntity (e) {
  const out = { id: e.id, name: e.name || 'unknown', type: e.type || 'unknown', pos: vec(e.position) }
  if (e.type === 'player') out.username = e.username
  if (e.name === 'item' || e.name === 'item_stack') {
    const item = droppedItem(e)
    out.item = item ? { name: item.name, count: item.count } : null
  }
  return out
}

// Resolves after `n` physics ticks of the client (each one sends its position and look to the
// server), or after a bounded wait when physics is paused (chunk not loaded).
function ticks (n) {
  return new Promise((resolve) => {
    let left = n
    const timer = setTimeout(done, 50 * n + 1000)
    function onTick () { if (--left <= 0) done() }
    function done () {
      clearTimeout(timer)
      bot.removeListener('physicsTick', onTick)
      resolve()
    }
    bot.on('physicsTick', onTick)
  })
}

function point (p, what = 'pos') {
  if (!Array.isArray(p) || p.length !== 3 || !p.every(Number.isFinite)) {
    throw new Error(`${what} must be [x,y,z] numbers`)
  }
  return new Vec3(p[0], p[1], p[2])
}

function blockName (pos) {
  const block = bot.blockAt(pos.floored())
  return block ? block.name : 'air'
}

const ops = {
  async chat ({ text }) {
    if (typeof text !== 'string' || text === '') throw new Error('text must be a non-empty string')
    bot.chat(text)
    return {}
  },
  async block ({ pos }) {
    return { name: blockName(point(pos)) }
  },
  async blocks ({ from, to }) {
    const a = point(from, 'from').floored()
    const b = point(to, 'to').floored()
    const lo = new Vec3(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.min(a.z, b.z))
    const hi = new Vec3(Math.max(a.x, b.x), Math.max(a.y, b.y), Math.max(a.z, b.z))
    const count = (hi.x - lo.x + 1) * (hi.y - lo.y + 1) * (hi.z - lo.z + 1)
    if (count > MAX_BOX_BLOCKS) throw new Error(`box of ${count} blocks is over ${MAX_BOX_BLOCKS}`)
    const blocks = []
    const p = new Vec3(0, 0, 0)
    for (let x = lo.x; x <= hi.x; x++) {
      for (let y = lo.y; y <= hi.y; y++) {
        for (let z = lo.z; z <= hi.z; z++) {
          p.set(x, y, z)
          const block = bot.blockAt(p)
          if (block && block.name !== 'air' && block.name !== 'cave_air' && block.name !== 'void_air') {
            blocks.push([x, y, z, block.name])
          }
        }
      }
    }
    return { blocks }
  },
  async players () {
    const players = []
    for (const player of Object.values(bot.players)) {
      const entity = player.username === bot.username ? bot.entity : player.entity
      if (entity && entity.position) players.push({ name: player.username, pos: vec(entity.position) })
    }
    if (!players.some((p) => p.name === bot.username)) players.push({ name: bot.username, pos: vec(bot.entity.position) })
    return { players }
  },
  async pos () {
    return { pos: vec(bot.entity.position) }
  },
  async look_at ({ pos }) {
    // Servers pass a look on to other players in steps of 360/256 degrees, rounding down; the look
    // is put exactly on the nearest step (plus a hair, against float error) so that what others see
    // is the nearest step to the true direction, not up to a whole step off.
    const target = point(pos)
    const delta = target.minus(bot.entity.position.offset(0, bot.entity.eyeHeight, 0))
    if (delta.norm() < 1e-6) throw new Error('pos is at the eyes')
    const yawDeg = (Math.atan2(-delta.x, delta.z) * 180) / Math.PI // Minecraft: 0 = +z, 90 = -x
    const pitchDeg = (-Math.atan2(delta.y, Math.hypot(delta.x, delta.z)) * 180) / Math.PI // +90 = down
    const yawStep = Math.round(yawDeg / ANGLE_STEP)
    const pitchStep = Math.round(pitchDeg / ANGLE_STEP)
    // mineflayer's angles: yaw = PI - Minecraft yaw, pitch = -Minecraft pitch (radians)
    const yaw = Math.PI - ((yawStep * ANGLE_STEP + ANGLE_HAIR) * Math.PI) / 180
    const pitch = -((pitchStep * ANGLE_STEP + ANGLE_HAIR) * Math.PI) / 180
    await bot.look(yaw, pitch, true) // force: sent as is with the next tick, not turned gradually
    bot.entity.yaw = yaw // bot.look rounds to a mouse sensitivity; undo that
    bot.entity.pitch = pitch
    await ticks(2) // the look reaches the server with the next physics tick
    const wrap = (deg) => ((((deg + 180) % 360) + 360) % 360) - 180
    return { yaw: wrap(yawStep * ANGLE_STEP), pitch: pitchStep * ANGLE_STEP }
  },
  async teleport ({ pos }) {
    // No operator rights needed: flying-squid takes a client's position as it is sent, so the
    // observer puts itself there, hovering (creative flight, no gravity) so it stays put.
    const target = point(pos)
    bot.creative.startFlying()
    bot.entity.velocity.set(0, 0, 0)
    bot.entity.position = target.clone()
    // mineflayer sends no position while its own chunk is unloaded, and the server sends the
    // chunks only once it knows the position: say it directly.
    bot._client.write('position', {
      x: target.x,
      y: target.y,
      z: target.z,
      onGround: false,
      flags: { onGround: false, hasHorizontalCollision: false }
    })
    const deadline = Date.now() + OP_TIMEOUT_MS
    while (bot.blockAt(target.floored()) == null) {
      if (Date.now() > deadline) throw new Error('chunks at the destination did not arrive')
      await sleep(50)
    }
    bot.entity.position = target.clone()
    bot.entity.velocity.set(0, 0, 0)
    await ticks(3)
    if (bot.entity.position.distanceTo(target) > 0.01) {
      throw new Error(`ended at ${vec(bot.entity.position)}, not at ${vec(target)}`)
    }
    return { pos: vec(bot.entity.position) }
  },
  async entities ({ pos, radius = 16 }) {
    if (!(Number.isFinite(radius) && radius > 0)) throw new Error('radius must be a positive number')
    const centre = point(pos)
    const entities = Object.values(bot.entities)
      .filter((e) => e !== bot.entity && e.position && e.position.distanceTo(centre) <= radius)
      .sort((a, b) => a.id - b.id)
      .map(describeEntity)
    return { entities }
  },
  async inventory () {
    const items = bot.inventory.items().map((i) => ({ slot: i.slot, name: i.name, count: i.count }))
    return { items }
  },
  async collects () {
    const collects = pendingCollects
    pendingCollects = []
    return { collects }
  },
  async chats () {
    const chats = pendingChats
    pendingChats = []
    return { chats }
  },
  async quit () {
    quitting = true
    setTimeout(() => process.exit(0), 2000) // bounded: exit even when the server does not answer
    bot.quit()
    return {}
  }
}

async function handle (line) {
  let req
  try {
    req = JSON.parse(line)
  } catch (err) {
    send({ id: null, ok: false, error: 'bad JSON: ' + err.message })
    return
  }
  const id = req && req.id !== undefined ? req.id : null
  const op = req && ops[req.op]
  if (!op) {
    send({ id, ok: false, error: `unknown op ${JSON.stringify(req && req.op)}` })
    return
  }
  let timer
  try {
    const timeout = new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${req.op} timed out after ${OP_TIMEOUT_MS} ms`)), OP_TIMEOUT_MS)
    })
    const result = await Promise.race([op(req), timeout])
    send({ id, ok: true, ...result })
  } catch (err) {
    send({ id, ok: false, error: err && err.message ? err.message : String(err) })
  } finally {
    clearTimeout(timer)
  }
}

bot.once('spawn', () => {
  clearTimeout(spawnTimer)
  send({ event: 'ready', pos: vec(bot.entity.position), game_mode: bot.game.gameMode })
  // Requests are answered in order, one at a time, so a test reads answers in the order it asked.
  let queue = Promise.resolve()
  const rl = readline.createInterface({ input: process.stdin, terminal: false })
  rl.on('line', (line) => {
    if (line.trim() === '') return
    queue = queue.then(() => handle(line))
  })
  // The test went away: leave the server and exit rather than linger.
  rl.on('close', () => queue.then(() => ops.quit()))
})
