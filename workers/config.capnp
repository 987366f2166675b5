# workerd's configuration for serving rooms locally: make run-worker
# ADDR=127.0.0.1:PORT DATA=DIR (the socket "http" and the directory
# "room-data" are overridden there). The service "rooms" is the room object
# (workers/room/room.js and the engine it loads); "main" is the Worker that
# faces clients and reaches the rooms through the namespace binding ROOMS
# (workers/CONTRACT.md).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .entry),
    (name = "rooms", worker = .rooms),
    (name = "room-data", disk = (path = "data", writable = true)),
    # The static site (make site), which Workers static assets serve in a
    # deployment; make run-worker points it at SITE.
    (name = "site", disk = (path = "../site/public")),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

# The room object: one per account, its SQLite storage in room-data.
const rooms :Workerd.Worker = (
  modules = [
    (name = "room.js", esModule = embed "room/room.js"),
    (name = "go-glue.js", esModule = embed "build/go-glue.js"),
    (name = "room.wasm", wasm = embed "build/room.wasm"),
  ],
  compatibilityDate = "2025-09-01",
  durableObjectNamespaces = [(className = "Room", uniqueKey = "tableplay-room", enableSql = true)],
  durableObjectStorage = (localDisk = "room-data"),
);

# The entry Worker (workers/entry/, Go on syumai/workers, built by make
# worker-entry): creates rooms, routes /<room>/… to the room's object, serves
# the site. Its settings come from the environment (docs/hosting.md); an
# unset variable takes the entry's default, an unset ROOM_SECRET refuses to
# create rooms.
const entry :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "build/entry/worker.mjs"),
    (name = "wasm_exec.js", esModule = embed "build/entry/wasm_exec.js"),
    (name = "app.wasm", wasm = embed "build/entry/app.wasm"),
  ],
  compatibilityDate = "2025-09-01",
  bindings = [
    (name = "ROOMS", durableObjectNamespace = (className = "Room", serviceName = "rooms")),
    (name = "ASSETS", service = "site"),
    (name = "ROOM_SECRET", fromEnvironment = "ROOM_SECRET"),
    (name = "ROOM_IDLE_SECONDS", fromEnvironment = "ROOM_IDLE_SECONDS"),
    (name = "ROOM_MAX_ENTITIES", fromEnvironment = "ROOM_MAX_ENTITIES"),
    (name = "ROOM_MAX_BYTES", fromEnvironment = "ROOM_MAX_BYTES"),
    (name = "ROOM_RPS", fromEnvironment = "ROOM_RPS"),
    (name = "ROOM_CREATE_PER_CLIENT", fromEnvironment = "ROOM_CREATE_PER_CLIENT"),
    (name = "ROOM_CREATE_TOTAL", fromEnvironment = "ROOM_CREATE_TOTAL"),
  ],
);

# What the room's own tests serve (workers/room/*_test.go, workerd serve
# config.capnp test): the same rooms behind the test entry
# (workers/room/testentry.js), which also answers GET /rooms/<account> with
# the object's /_room/info and needs no secret.
const test :Workerd.Config = (
  services = [
    (name = "main", worker = .testEntry),
    (name = "rooms", worker = .rooms),
    (name = "room-data", disk = (path = "data", writable = true)),
    (name = "site", disk = (path = "../site/public")),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const testEntry :Workerd.Worker = (
  modules = [(name = "entry.js", esModule = embed "room/testentry.js")],
  compatibilityDate = "2025-09-01",
  bindings = [(name = "ROOMS", durableObjectNamespace = (className = "Room", serviceName = "rooms"))],
);
