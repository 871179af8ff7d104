// Self-check of server.js and observer.js, independent of the Rust tests: starts the server on a free
// 127.0.0.1 port, drives two observers and a mineflayer "builder" through everything the live tests
// rely on, kills and restarts the server, and prints one line per check plus the start time and RSS.
// Run it after changing server.js, observer.js or the pinned versions: node tests/server/check.js
'use strict'

const { spawn, execFileSync } = require('child_process')
const net = require('net')
const path = require('path')
const readline = require('readline')
const mineflayer = require('mineflayer')
const { Vec3 } = require('vec3')

const SERVER = path.join(__dirname, 'server.js')
const OBSERVER = path.join(__dirname, 'observer.js')
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const children = []
let passed = 0
let failed = 0

function check (what, ok, detail = '') {
  if (ok) passed++
  else failed++
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? '  ' + detail : ''}`)
}

function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

// A child process speaking lines on stdout; next() waits (bounded) for the next line.
function start (args, tag) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  children.push(child)
  const lines = []
  const waiting = []
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const w = waiting.shift()
    if (w) w(line)
    else lines.push(line)
  })
  child.stderr.on('data', (d) => { if (process.env.VERBOSE) process.stderr.write(`[${tag}] ${d}`) })
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  child.next = (ms = 20000) => new Promise((resolve, reject) => {
    if (lines.length) return resolve(lines.shift())
    const timer = setTimeout(() => reject(new Error(`${tag}: no line within ${ms} ms`)), ms)
    waiting.push((line) => { clearTimeout(timer); resolve(line) })
  })
  let id = 0
  child.req = async (req) => {
    req.id = ++id
    child.stdin.write(JSON.stringify(req) + '\n')
    const answer = JSON.parse(await child.next())
    if (answer.id !== req.id) throw new Error(`${tag}: answer ${answer.id} to request ${req.id}`)
    return answer
  }
  return child
}

async function startServer (port) {
  const t0 = process.hrtime.bigint()
  const server = start([SERVER, String(port)], 'server')
  const line = await server.next(30000)
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  return { server, line, ms }
}

function rssMiB (pid) {
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024
}

async function observer (port, name) {
  const obs = start([OBSERVER, String(port), name], name)
  const ready = JSON.parse(await obs.next(30000))
  return { obs, ready }
}

function within (a, b, eps = 1e-6) {
  return a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= eps)
}

async function main () {
  const port = await freePort()
  const { server, line, ms } = await startServer(port)
  check('server prints READY <port>', line === `READY ${port}`, `${JSON.stringify(line)} after ${ms.toFixed(0)} ms`)

  const { obs: alice, ready: aliceReady } = await observer(port, 'Alice')
  const { obs: bob, ready: bobReady } = await observer(port, 'Bob')
  check('observers spawn', aliceReady.event === 'ready' && bobReady.event === 'ready', JSON.stringify([aliceReady, bobReady]))
  check('observers are in creative', aliceReady.game_mode === 'creative' && bobReady.game_mode === 'creative')
  await sleep(500)

  // Ground: superflat is bedrock at y=0, dirt 1..3, grass_block at 4.
  const layers = []
  for (const y of [0, 1, 3, 4, 5]) layers.push((await alice.req({ op: 'block', pos: [3, y, 3] })).name)
  check('superflat layers', layers.join() === 'bedrock,dirt,dirt,grass_block,air', layers.join())

  // Stand both where the builder will work, so everyone is near.
  await alice.req({ op: 'teleport', pos: [0.5, 5, 0.5] })
  await bob.req({ op: 'teleport', pos: [4.5, 5, 0.5] })
  await sleep(300)
  const aPlayers = (await alice.req({ op: 'players' })).players
  const bPlayers = (await bob.req({ op: 'players' })).players
  const find = (list, name) => list.find((p) => p.name === name)
  check('each observer sees the other', !!find(aPlayers, 'Bob') && !!find(bPlayers, 'Alice'), JSON.stringify(aPlayers))
  check('players includes itself', within(find(aPlayers, 'Alice')?.pos || [], [0.5, 5, 0.5]))
  check('teleport (near) seen by the other', within(find(bPlayers, 'Alice')?.pos || [], [0.5, 5, 0.5], 0.01),
    JSON.stringify(find(bPlayers, 'Alice')))

  await alice.req({ op: 'chat', text: 'hello bob' })
  await bob.req({ op: 'chat', text: 'hi alice' })
  await sleep(300)
  const bChats = (await bob.req({ op: 'chats' })).chats
  const aChats = (await alice.req({ op: 'chats' })).chats
  check('chat arrives, own lines excluded', JSON.stringify(bChats) === '[{"from":"Alice","text":"hello bob"}]' &&
    JSON.stringify(aChats) === '[{"from":"Bob","text":"hi alice"}]', JSON.stringify([aChats, bChats]))
  check('chats drains', (await bob.req({ op: 'chats' })).chats.length === 0)

  // A player places and breaks blocks in creative; the observers see it.
  const builder = mineflayer.createBot({ host: '127.0.0.1', port, username: 'Builder', version: '26.1', auth: 'offline', hideErrors: true })
  await Promise.race([new Promise((resolve) => builder.once('spawn', resolve)), sleep(30000).then(() => { throw new Error('builder did not spawn') })])
  check('builder in creative', builder.game.gameMode === 'creative', builder.game.gameMode)
  builder.creative.startFlying()
  builder.entity.position = new Vec3(2.5, 5, 3.5)
  await sleep(500)
  const Item = require('prismarine-item')(builder.registry)
  await builder.creative.setInventorySlot(36, new Item(builder.registry.itemsByName.red_wool.id, 64))
  builder.setQuickBarSlot(0)
  await sleep(200)
  const ground = builder.blockAt(new Vec3(2, 4, 1))
  await builder.lookAt(new Vec3(2.5, 5, 1.5), true)
  await builder.placeBlock(ground, new Vec3(0, 1, 0))
  await builder.placeBlock(builder.blockAt(new Vec3(2, 5, 1)), new Vec3(0, 1, 0))
  await sleep(300)
  const aBox = (await alice.req({ op: 'blocks', from: [1, 5, 0], to: [3, 7, 2] })).blocks
  const bBlock = (await bob.req({ op: 'block', pos: [2, 6, 1] })).name
  check('placed blocks seen by observers', JSON.stringify(aBox) === '[[2,5,1,"red_wool"],[2,6,1,"red_wool"]]' && bBlock === 'red_wool',
    JSON.stringify(aBox))
  const acks = []
  builder._client.on('acknowledge_player_digging', (p) => acks.push(p.sequenceId))
  await builder.dig(builder.blockAt(new Vec3(2, 6, 1)))
  await sleep(300)
  check('block actions acknowledged', acks.length > 0, JSON.stringify(acks))
  const afterDig = (await bob.req({ op: 'blocks', from: [1, 5, 0], to: [3, 7, 2] })).blocks
  check('broken block seen by observers', JSON.stringify(afterDig) === '[[2,5,1,"red_wool"]]', JSON.stringify(afterDig))

  // Look: what other players see of the observer's look is what look_at answered.
  const look = await alice.req({ op: 'look_at', pos: [2.5, 5.5, 1.5] })
  await sleep(300)
  const seen = Object.values(builder.entities).find((e) => e.username === 'Alice')
  // mineflayer's angles back to Minecraft degrees (yaw 0 = +z, 90 = -x; pitch +90 = down)
  const seenYaw = ((((180 - (seen.yaw * 180) / Math.PI) + 180) % 360) + 360) % 360 - 180
  const seenPitch = (-seen.pitch * 180) / Math.PI
  check('look_at seen by others as answered', look.ok && Math.abs(seenYaw - look.yaw) < 1e-6 && Math.abs(seenPitch - look.pitch) < 1e-6,
    JSON.stringify({ look, seen: [seenYaw, seenPitch] }))
  check('look_at points at the target', look.ok && look.pitch > 0 && look.pitch < 45 && Math.abs(look.yaw + 90) < 45, JSON.stringify(look))

  // Entities, inventory and pickups: the builder throws an apple at Bob's feet; Bob picks it up.
  builder.entity.position = new Vec3(4.5, 5, 1.5)
  await sleep(500)
  await builder.creative.setInventorySlot(37, new Item(builder.registry.itemsByName.apple.id, 1))
  builder.setQuickBarSlot(1)
  await sleep(300)
  builder._client.write('block_dig', { status: 4, location: { x: 0, y: 0, z: 0 }, face: 0, sequence: 0 })
  const seenItem = await (async () => {
    for (let i = 0; i < 20; i++) {
      const near = (await bob.req({ op: 'entities', pos: [4.5, 5, 0.5], radius: 4 })).entities
      if (near.some((e) => e.name === 'item')) return near
      await sleep(50)
    }
    return null
  })()
  check('entities lists an item entity and the players near a point', !!seenItem && seenItem.some((e) => e.username === 'Builder'),
    JSON.stringify(seenItem))
  builder.entity.position = new Vec3(4.5, 5, 6.5) // gone before the pickup delay: Bob is the one near it
  await sleep(1500)
  const inv = (await bob.req({ op: 'inventory' })).items
  const collects = (await bob.req({ op: 'collects' })).collects
  check('inventory holds what was picked up; collects names the collector', inv.some((i) => i.name === 'apple') &&
    collects.some((c) => c.by === 'Bob'), JSON.stringify({ inv, collects }))

  // A long jump: chunks follow, others see the new place.
  const far = await alice.req({ op: 'teleport', pos: [300.5, 5, -200.5] })
  const farGround = (await alice.req({ op: 'block', pos: [300, 4, -201] })).name
  await sleep(500)
  const bSees = find((await bob.req({ op: 'players' })).players, 'Alice')
  check('teleport (far) with chunks there', far.ok && farGround === 'grass_block', JSON.stringify(far) + ' ' + farGround)
  check('teleport (far) seen by the other', !!bSees && within(bSees.pos, [300.5, 5, -200.5], 0.01), JSON.stringify(bSees))
  builder.quit()

  const bad = await alice.req({ op: 'nope' })
  check('unknown op answered with an error', bad.ok === false && typeof bad.error === 'string', JSON.stringify(bad))

  const quit = await bob.req({ op: 'quit' })
  const bobExit = await Promise.race([bob.exited, sleep(5000).then(() => null)])
  check('quit answers and exits 0', quit.ok && bobExit && bobExit.code === 0, JSON.stringify(bobExit))

  const rss = rssMiB(server.pid)
  // Killed mid-session: the observer notices and exits non-zero; a restart on the same port works.
  server.kill('SIGKILL')
  const aliceExit = await Promise.race([alice.exited, sleep(10000).then(() => null)])
  check('observer exits non-zero when the server dies', aliceExit && aliceExit.code !== 0, JSON.stringify(aliceExit))
  const again = await startServer(port)
  check('restart on the same port', again.line === `READY ${port}`, `${again.ms.toFixed(0)} ms`)
  const { obs: carol, ready: carolReady } = await observer(port, 'Carol')
  check('a fresh observer joins the restarted server', carolReady.event === 'ready')
  const carolBlock = (await carol.req({ op: 'block', pos: [2, 5, 1] })).name
  check('the restarted world is fresh', carolBlock === 'air', carolBlock)
  await carol.req({ op: 'quit' })
  again.server.kill('SIGTERM')
  const stopped = await Promise.race([again.server.exited, sleep(5000).then(() => null)])
  check('SIGTERM stops the server with 0', stopped && stopped.code === 0, JSON.stringify(stopped))

  console.log(`start: ${ms.toFixed(0)} ms (restart ${again.ms.toFixed(0)} ms) to READY; RSS with 3 players ${rss.toFixed(0)} MiB`)
}

const watchdog = setTimeout(() => { console.log('FAIL check timed out'); finish(1) }, 180000)
function finish (code) {
  clearTimeout(watchdog)
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  console.log(`${passed} passed, ${failed} failed`)
  process.exit(code || (failed ? 1 : 0))
}
main().then(() => finish(0), (err) => { console.log('FAIL ' + (err.stack || err)); failed++; finish(1) })
