# shellcheck shell=bash
# ferretdb (optional): FerretDB over SQLite beside the stand-in, the tests' second database
# (scripts/test.sh). Built from the Go module proxy with the patches in patches/ferretdb; the mongo
# part runs the same program in the stand-in's place with TT_MONGO=ferretdb (parts/mongo.sh).

FERRETDB_LIB=$LIB/ferretdb-${TT_FERRETDB_VERSION#v}

ferretdb_var() { echo FERRETDB_URI; }
ferretdb_address() { echo "mongodb://127.0.0.1:$TT_FERRETDB_PORT"; }
ferretdb_port() { echo "$TT_FERRETDB_PORT"; }
ferretdb_take_ports() { take_port TT_FERRETDB_PORT; }

# install.sh returns at once when the binary matches the version, Go and patches.
ferretdb_install() {
  require go "apt-get install golang-go (FerretDB needs Go >= 1.24, which Go fetches from its proxy)"
  TT_FERRETDB_VERSION=$TT_FERRETDB_VERSION bash "$HERE/ferretdb/install.sh" "$FERRETDB_LIB"
}

ferretdb_start() { ferretdb_launch ferretdb "$TT_FERRETDB_PORT" "$DATA/ferretdb-part"; }

# ferretdb_launch UNIT PORT DIR: FerretDB with its SQLite backend (one file per database under
# DIR); no telemetry, no debug port.
ferretdb_launch() {
  local unit=$1 port=$2 dir=$3
  mkdir -p "$dir/data"
  launch "$unit" "$FERRETDB_LIB/ferretdb" --handler=sqlite "--sqlite-url=file:$dir/data/" \
    "--listen-addr=127.0.0.1:$port" --debug-addr=- --telemetry=disable "--state-dir=$dir" --log-level=warn
}

ferretdb_healthy() { port_open "$TT_FERRETDB_PORT"; }
