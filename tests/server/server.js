// Minecraft 26.1 test server for craftmate's live tests: flying-squid (pinned in package.json) started
// on 127.0.0.1:PORT, offline, superflat, creative, world in memory only.
//
// flying-squid 1.12.0 speaks protocols up to 1.21.4. It serves 26.1 once a few of the packets it writes
// are brought to the 26.1 layout; this launcher does that at run time, by wrapping its modules and each
// client's `write`, never by editing node_modules (see README.md for the list and the reasons).
//
// Usage: node tests/server/server.js PORT
// stdout carries `READY <port>` once connections are accepted, and answers to the console command
// `spawnpoint` (below); logs go to stderr.
'use strict'

const port = parseInt(process.argv[2], 10)
if (!(port > 0 && port < 65536)) {
  process.stderr.write('usage: node server.js PORT\n')
  process.exit(2)
}
const VERSION = '26.1'
const log = (msg) => process.stderr.write(`[server] ${msg}\n`)

// flying-squid's console reads commands from stdin and writes a prompt to stdout; stdout is ours
// (READY only), so its console is sent to stderr.
const readline = require('readline')
const createInterface = readline.createInterface
readline.createInterface = (opts) => createInterface({ ...opts, output: process.stderr, terminal: false })
const cursorTo = readline.cursorTo
readline.cursorTo = (stream, ...rest) => stream === process.stdout ? true : cursorTo(stream, ...rest)

// 1. The version check: flying-squid refuses versions above its tested list.
const fsVersion = require('flying-squid/src/lib/version')
fsVersion.testedVersions.push(VERSION)
fsVersion.latestSupportedVersion = VERSION

// 2. The anvil provider has no 26.1 support and throws when its class is built, even for a world
// that is never saved; the world here is in memory, so a failing build yields no provider.
const anvil = require('prismarine-provider-anvil')
const makeAnvil = anvil.Anvil
anvil.Anvil = (registry) => {
  try {
    return makeAnvil(registry)
  } catch (err) {
    return class NoAnvil { constructor () { throw new Error('no anvil storage for ' + VERSION) } }
  }
}

// 3. Speed: flying-squid builds each superflat chunk block by block (~27 ms), so a player waits
// seconds for its chunks; all superflat chunks are alike, so one is built and then copied (<1 ms).
const generations = require('flying-squid/src/lib/generations')
const superflat = generations.superflat
generations.superflat = (options) => {
  const generate = superflat(options)
  const Chunk = require('prismarine-chunk')(options.registry)
  let blocks = null
  let light = null
  return (chunkX, chunkZ) => {
    if (blocks === null) {
      const first = generate(chunkX, chunkZ)
      blocks = first.dump()
      light = first.dumpLight()
    }
    const chunk = new Chunk()
    chunk.load(blocks)
    chunk.loadParsedLight(light.skyLight, light.blockLight, light.skyLightMask, light.blockLightMask,
      light.emptySkyLightMask, light.emptyBlockLightMask)
    return chunk
  }
}

const mcServer = require('flying-squid')

const serv = mcServer.createMCServer({
  motd: 'craftmate test server',
  port,
  host: '127.0.0.1',
  'max-players': 20,
  'online-mode': false,
  logging: false,
  noConsoleOutput: true,
  gameMode: 1,
  difficulty: 0,
  worldFolder: undefined,
  generation: { name: 'superflat', options: {} },
  kickTimeout: 10000,
  plugins: {},
  modpe: false,
  'view-distance': 6,
  'player-list-text': { header: { text: 'craftmate' }, footer: { text: 'test server' } },
  'everybody-op': false,
  'max-entities': 100,
  version: VERSION,
  // A debug logger also keeps flying-squid from installing its own crash handlers (below).
  debug: process.env.CRAFTMATE_SERVER_DEBUG ? (msg) => log('debug: ' + msg) : () => {}
})
serv.log = (msg) => log(msg)

// flying-squid's handlers would exit 0 on a crash; a crash must fail the tests instead. A rejected
// promise in one of its packet handlers is logged and the server goes on, as flying-squid does.
process.on('uncaughtException', (err) => {
  log('crash: ' + (err && err.stack ? err.stack : err))
  process.exit(1)
})
process.on('unhandledRejection', (err) => log('unhandled rejection: ' + (err && err.stack ? err.stack : err)))

// 4. Packets whose 26.1 layout differs from what flying-squid writes, rewritten on the way out;
// the sound packets it writes have no 26.1 form (sounds are irrelevant here) and are dropped.
const GAME_MODES = ['survival', 'creative', 'adventure', 'spectator']
const byteToDegrees = (b) => (b * 360) / 256
const perTick = (v) => ({ x: (v?.x || 0) / 8000, y: (v?.y || 0) / 8000, z: (v?.z || 0) / 8000 })
const DROPPED = new Set(['sound_effect', 'named_sound_effect', 'entity_sound_effect'])
// 26.1 heightmaps: typed arrays of longs; 384 rows high packs 9-bit entries 7 to a long, 37 longs.
const HEIGHTMAPS = [{ type: 'motion_blocking', data: new Array(37).fill([0, 0]) }]

function rewrite (name, p) {
  switch (name) {
    case 'login': // the game mode moved into worldState (flying-squid copies survival from its data)
      return {
        ...p,
        worldState: { ...p.worldState, gamemode: GAME_MODES[p.gameMode] || 'creative', previousGamemode: 255, isFlat: true }
      }
    case 'spawn_position': // now a dimension + position pair with yaw and pitch
      return { globalPos: { dimensionName: 'minecraft:overworld', location: p.location }, yaw: 0, pitch: 0 }
    case 'update_time': // day time now travels as world clocks; clock 0 is the overworld's
      return { age: p.age, clockUpdates: [{ id: 0, totalTicks: Number(p.time?.[1] ?? 0), partialTick: 0, rate: 1 }] }
    case 'map_chunk': // heightmaps are no longer NBT
      return p.heightmaps && !Array.isArray(p.heightmaps) ? { ...p, heightmaps: HEIGHTMAPS } : p
    case 'entity_teleport': // gained a velocity and relative flags; angles are float degrees
      return { ...p, dx: 0, dy: 0, dz: 0, yaw: byteToDegrees(p.yaw), pitch: byteToDegrees(p.pitch), flags: {} }
    case 'position': // the player's own position: same new fields
      return { ...p, dx: 0, dy: 0, dz: 0, flags: {} }
    case 'player_info':
      // 26.1 removes players with a packet of its own.
      return p.action?.remove_player ? ['player_remove', { players: p.data.map((d) => d.uuid) }] : p
    case 'entity_velocity': // velocities are blocks per tick (lpVec3), not 1/8000ths
    case 'spawn_entity':
      return { ...p, velocity: perTick(p.velocity) }
    default:
      return p
  }
}

serv._server.on('connection', (client) => {
  const write = client.write.bind(client)
  client.write = (name, params) => {
    if (DROPPED.has(name)) return
    const out = rewrite(name, params)
    if (Array.isArray(out)) write(out[0], out[1])
    else write(name, out)
  }
})

// 5. flying-squid sends the player list to everyone but the player who joins, so a client would not
// know the names of those already there; it is sent to the joining player too.
// 6. The login packet carries the game mode, but an explicit switch after spawn (with the creative
// abilities, which flying-squid leaves unsent) makes every client settle in creative for sure.
// 7. Players are spawned for the others with entity type 0 (flying-squid leaves it unset); 26.1
// clients then see some other entity, not a player.
serv.on('newPlayer', (player) => {
  player.entityType = serv.registry.entitiesByName.player.id
  const sendPlayerList = serv._sendPlayerList
  serv._sendPlayerList = (toPlayer) => {
    sendPlayerList(toPlayer)
    toPlayer._client.write('player_info', {
      action: { add_player: true, update_game_mode: true, update_listed: true, update_latency: true },
      data: serv.players.map((p) => ({
        uuid: p.uuid,
        player: { name: p.username, properties: p.profileProperties || [] },
        gamemode: p.gameMode,
        listed: 1,
        latency: p._client.latency || 0
      }))
    })
  }
  // 8. The chunk view centre: flying-squid's update of it compares against a position that its own
  // entity tracker has already moved on, so it is almost never sent; clients that keep only chunks
  // near that centre (vanilla, azalea) would drop the chunks of any place they go to.
  let viewChunk = null
  const sendViewCentre = () => {
    const chunkX = Math.floor(player.position.x / 16)
    const chunkZ = Math.floor(player.position.z / 16)
    if (viewChunk && viewChunk[0] === chunkX && viewChunk[1] === chunkZ) return
    viewChunk = [chunkX, chunkZ]
    player._client.write('update_view_position', { chunkX, chunkZ })
  }
  const sendSpawnPosition = player.sendSpawnPosition
  player.sendSpawnPosition = () => {
    sendSpawnPosition()
    sendViewCentre()
  }
  player.on('move', sendViewCentre)
  // 9. Chunks follow a player only on moves made while no chunks are being sent, so after a long
  // jump the chunks around the old place went out and none around the new one; send again then.
  const sendRestOfChunks = player.worldSendRestOfChunks
  player.worldSendRestOfChunks = async () => {
    await sendRestOfChunks()
    if (!player.disconnected && player.position.distanceTo(player.lastPositionChunkUpdated) > 16) {
      return player.worldSendRestOfChunks()
    }
  }
  // 10. Block actions carry a sequence number that the server must acknowledge, as vanilla does at
  // the end of each tick; flying-squid does not in creative. Clients that predict (azalea predicts
  // creative breaking) hold back every later server update of that block until the ack, so without
  // it a block broken once would never be seen to change again. Acked a tick later, after the
  // block updates the action caused.
  // 11. A player's block actions are handled one after another, each once the block the one before
  // set is in the world. flying-squid runs each packet's asynchronous steps concurrently, so in a
  // burst (packets queue up while the server is busy, e.g. sending chunks) a placement can look up
  // the block it is placed against before an earlier placement has put it there, find air, and put
  // its block into the wrong cell. Vanilla handles a player's packets strictly in order.
  let lastSet = Promise.resolve()
  const setBlock = player.setBlock
  player.setBlock = (...args) => (lastSet = Promise.resolve(setBlock(...args)))
  // 12. Breaking in creative: flying-squid sends the change to every other player but not to the one
  // who broke the block. Vanilla sends each block change to everyone who sees it, that player too;
  // a client that predicted the change reverts it when the action's acknowledgement comes without
  // that update (vanilla clients and craftmate both do), so the block would seem to come back.
  const changeBlock = player.changeBlock
  player.changeBlock = (position, blockType, blockData) => {
    player.sendBlock(position, blockType, blockData)
    return (lastSet = Promise.resolve(changeBlock(position, blockType, blockData)))
  }
  let actions = Promise.resolve()
  for (const packet of ['block_dig', 'block_place']) {
    const handlers = player._client.listeners(packet)
    player._client.removeAllListeners(packet)
    player._client.on(packet, (data) => {
      actions = actions
        .then(async () => {
          for (const handle of handlers) await handle(data)
          // The handlers finish their work in callbacks they do not wait for: let those run.
          await new Promise((resolve) => setImmediate(resolve))
          await lastSet
        })
        .catch((err) => log(`${packet}: ${err && err.stack ? err.stack : err}`))
    })
  }
  let ackUpTo = -1
  let ackTimer = null
  const ack = ({ sequence } = {}) => {
    if (!Number.isInteger(sequence)) return
    ackUpTo = Math.max(ackUpTo, sequence)
    if (ackTimer) return
    ackTimer = setTimeout(() => {
      ackTimer = null
      if (!player.disconnected) player._client.write('acknowledge_player_digging', { sequenceId: ackUpTo })
    }, 50)
  }
  for (const packet of ['block_dig', 'block_place', 'use_item']) player._client.on(packet, ack)
  player.once('spawned', () => {
    player._client.write('game_state_change', { reason: 3, gameMode: player.gameMode })
    // invulnerable | may fly | creative
    player._client.write('abilities', { flags: 1 | 4 | 8, flyingSpeed: 0.05, walkingSpeed: 0.1 })
  })
})

// 13. (README: 21) Chests keep what is put in them. flying-squid opens a chest's window but sends it empty,
// and hands every click in it to the player's own inventory. Here each chest has 27 slots, kept
// in memory by position: its window shows them (and the player's inventory below, as vanilla's
// does), and a click in it takes the slots the client reports changed. A vanilla server works
// the click out itself and checks it against that report; this test server only records it, so
// the tests check the client's clicks through what the chest then holds (console `chest`).
const CHEST_SLOTS = 27
const chests = new Map() // 'x,y,z' -> [{ id, count } | null] * 27
const chestKey = (p) => `${Math.floor(p.x)},${Math.floor(p.y)},${Math.floor(p.z)}`
const chestAt = (p) => {
  const key = chestKey(p)
  if (!chests.has(key)) chests.set(key, new Array(CHEST_SLOTS).fill(null))
  return chests.get(key)
}
const slotOut = (s) => s && s.count > 0
  ? { itemCount: s.count, itemId: s.id, addedComponentCount: 0, removedComponentCount: 0, components: [], removeComponents: [] }
  : { itemCount: 0 }
function openChest (player) {
  return player.windowType === 'chest' && player.windowPos ? chestAt(player.windowPos) : null
}
serv.on('newPlayer', (player) => {
  const Item = require('prismarine-item')(serv.registry)
  const write = player._client.write.bind(player._client)
  player._client.write = (name, params) => {
    const slots = name === 'window_items' && params.windowId === player.windowId ? openChest(player) : null
    if (!slots) return write(name, params)
    // The chest's slots, then the player's main inventory (window slots 9..35) and hotbar (36..44).
    const own = player.inventory.slots.slice(9, 45).map((i) => i ? { id: i.type, count: i.count } : null)
    write(name, { ...params, items: [...slots, ...own].map(slotOut), carriedItem: slotOut(null) })
  }
  const handlers = player._client.listeners('window_click')
  player._client.removeAllListeners('window_click')
  player._client.on('window_click', (click) => {
    const slots = click.windowId === player.windowId ? openChest(player) : null
    if (!slots) return handlers.forEach((h) => h(click))
    for (const { location, item } of click.changedSlots || []) {
      const held = item && item.itemCount > 0 ? { id: item.itemId, count: item.itemCount } : null
      if (location >= 0 && location < CHEST_SLOTS) slots[location] = held
      else if (location >= CHEST_SLOTS && location < CHEST_SLOTS + 36) {
        player.inventory.updateSlot(9 + location - CHEST_SLOTS, held ? new Item(held.id, held.count) : null)
      }
    }
  })
  // A broken chest keeps nothing (vanilla would drop its items; nothing here needs them).
  const changeBlock = player.changeBlock
  player.changeBlock = (position, ...rest) => {
    chests.delete(chestKey(position))
    return changeBlock(position, ...rest)
  }
})
// `chest X Y Z` on the console: what the chest there holds, as `CHEST X Y Z name:count,...` (the
// counts of each item summed, names sorted; nothing after the position when it is empty).
serv.commands.add({
  base: 'chest',
  info: 'what a chest holds (tests)',
  usage: 'chest <x> <y> <z>',
  onlyConsole: true,
  parse (str) {
    const xyz = str.trim().split(/\s+/).map(Number)
    return xyz.length === 3 && xyz.every(Number.isInteger) ? xyz : false
  },
  action ([x, y, z]) {
    const sums = new Map()
    for (const s of chests.get(`${x},${y},${z}`) || []) {
      if (!s) continue
      const name = serv.registry.items[s.id]?.name || `item${s.id}`
      sums.set(name, (sums.get(name) || 0) + s.count)
    }
    const list = [...sums].sort(([a], [b]) => a.localeCompare(b)).map(([n, c]) => `${n}:${c}`).join(',')
    process.stdout.write(`CHEST ${x} ${y} ${z}${list ? ' ' + list : ''}\n`)
  }
})

// A console command for the tests (not flying-squid's): `spawnpoint X Y Z` makes every later
// join start at exactly that position, as written (a corner of a block when the numbers are
// whole). flying-squid picks a random column in 0..30 × 0..30 for each join; a test that needs the
// bot somewhere in particular sets it here. Answered on stdout with `SPAWNPOINT X Y Z`.
const { Vec3 } = require('vec3')
serv.commands.add({
  base: 'spawnpoint',
  info: 'where later joins start (tests)',
  usage: 'spawnpoint <x> <y> <z>',
  onlyConsole: true,
  parse (str) {
    const xyz = str.trim().split(/\s+/).map(Number)
    return xyz.length === 3 && xyz.every(Number.isFinite) ? xyz : false
  },
  action ([x, y, z]) {
    serv.getSpawnPoint = async () => new Vec3(x, y, z)
    process.stdout.write(`SPAWNPOINT ${x} ${y} ${z}\n`)
  }
})

serv.on('error', (err) => {
  log('error: ' + (err && err.stack ? err.stack : err))
  if (!serv.isReady) process.exit(1) // e.g. the port is taken: no READY will come
})
// 'ready' = listening and every plugin loaded (earlier joins are turned away by flying-squid).
serv.once('ready', () => {
  process.stdout.write(`READY ${serv._server.socketServer.address().port}\n`)
})

// Exit 0 at once on SIGTERM/SIGINT (flying-squid's own hook would exit 128+signal); clients see
// the connection close. Registered before flying-squid's hook, so it runs first.
function shutdown (signal) {
  log(`${signal}: shutting down`)
  process.exit(0)
}
process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))

// A test that dies without stopping the server must not leave it running: exit when the process
// that started this one is gone (this one is then adopted by another).
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) shutdown('parent gone')
}, 1000).unref()
