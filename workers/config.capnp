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

# The entry Worker.
const entry :Workerd.Worker = (
  modules = [
    (name = "entry.js", esModule = embed "room/testentry.js"),
  ],
  compatibilityDate = "2025-09-01",
  bindings = [(name = "ROOMS", durableObjectNamespace = (className = "Room", serviceName = "rooms"))],
);
