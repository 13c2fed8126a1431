# shellcheck shell=bash
# mongo: the database, one of two (TT_MONGO; docs/local-stack.md compares them): the stand-in,
# mongo-java-server with its H2 backend from Maven Central and our launcher (infra/local/mongo),
# or FerretDB over SQLite on the same address (parts/ferretdb.sh builds it). The kind that runs is
# kept in $RUN/mongo.kind: restarts and later ups keep it until TT_MONGO says otherwise.

MONGO_LIB=$LIB/mongo-java-server-$TT_MONGO_JAVA_SERVER_VERSION

mongo_var() { echo MONGODB_URI; }
mongo_address() { echo "mongodb://127.0.0.1:$TT_MONGO_PORT"; }
mongo_port() { echo "$TT_MONGO_PORT"; }
mongo_take_ports() { take_port TT_MONGO_PORT; }
mongo_running_kind() { cat "$RUN/mongo.kind" 2>/dev/null || echo stand-in; }
mongo_status_note() { echo ", $(mongo_running_kind)"; }

mongo_install() {
  case $TT_MONGO in
    stand-in) mongo_install_standin ;;
    ferretdb) ferretdb_install ;;
    *) die "TT_MONGO=$TT_MONGO is not stand-in or ferretdb" ;;
  esac
}

mongo_install_standin() {
  [[ -f $MONGO_LIB/.complete ]] && return 0
  require mvn "apt-get install maven"
  require javac "apt-get install openjdk-17-jdk-headless"
  say "mongo: downloading de.bwaldvogel:mongo-java-server-h2-backend:$TT_MONGO_JAVA_SERVER_VERSION from Maven Central"
  rm -rf "$MONGO_LIB"
  mvn_quiet -f "$HERE/mongo/pom.xml" -Dmongo-java-server.version="$TT_MONGO_JAVA_SERVER_VERSION" \
    dependency:copy-dependencies -DoutputDirectory="$MONGO_LIB"
  mongo_build_launcher
  touch "$MONGO_LIB/.complete"
}

# The launcher is ours (infra/local/mongo/*.java), and so are the library's classes we patch
# (patches/mongo-java-server/*.patch, applied to the library's sources jar from Maven Central):
# built at install, rebuilt when a source or a patch changed; first on the classpath.
mongo_build_launcher() {
  local sources=$MONGO_LIB/sources patched=$MONGO_LIB/patched-src patch_file
  require patch "apt-get install patch"
  if ! compgen -G "$sources/mongo-java-server-core-*-sources.jar" >/dev/null; then
    mvn_quiet -f "$HERE/mongo/pom.xml" -Dmongo-java-server.version="$TT_MONGO_JAVA_SERVER_VERSION" \
      dependency:copy-dependencies -Dclassifier=sources -DincludeArtifactIds=mongo-java-server-core \
      -DoutputDirectory="$sources"
  fi
  rm -rf "$MONGO_LIB/launcher" "$patched"
  mkdir -p "$patched"
  # The library's sources each patch changes (its "+++ b/<path>" lines), taken from the jar.
  local -a patched_files
  mapfile -t patched_files < <(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$ROOT"/patches/mongo-java-server/*.patch | sort -u)
  (cd "$patched" && jar xf "$sources"/mongo-java-server-core-*-sources.jar "${patched_files[@]}")
  for patch_file in "$ROOT"/patches/mongo-java-server/*.patch; do
    patch -s -p1 -d "$patched" <"$patch_file" || die "mongo: $patch_file does not apply"
  done
  # The library's own sources use raw types: javac's "unchecked" note about them is not ours.
  javac -nowarn -XDsuppressNotes -cp "$MONGO_LIB/*" -d "$MONGO_LIB/launcher" "$HERE"/mongo/*.java \
    "${patched_files[@]/#/$patched/}"
  touch "$MONGO_LIB/launcher/.built"
}

# The running database stands unless the caller asked for the other one.
mongo_before_up() {
  pid_of mongo >/dev/null || return 0
  local running_kind
  running_kind=$(mongo_running_kind)
  if [[ -n $TT_MONGO_CHOSEN && $running_kind != "$TT_MONGO_CHOSEN" ]]; then
    die "mongo runs $running_kind, not TT_MONGO=$TT_MONGO_CHOSEN: TT_MONGO=$TT_MONGO_CHOSEN stack.sh restart mongo to switch"
  fi
}

mongo_start() {
  case $TT_MONGO in
    stand-in) mongo_start_standin ;;
    ferretdb) ferretdb_launch mongo "$TT_MONGO_PORT" "$DATA/ferretdb" ;;
    *) die "TT_MONGO=$TT_MONGO is not stand-in or ferretdb" ;;
  esac
  echo "$TT_MONGO" >"$RUN/mongo.kind"
}

mongo_start_standin() {
  local source
  for source in "$HERE"/mongo/*.java "$ROOT"/patches/mongo-java-server/*.patch; do
    if [[ $source -nt $MONGO_LIB/launcher/.built ]]; then
      mongo_build_launcher
      break
    fi
  done
  mkdir -p "$DATA/mongo"
  # Files of the stand-in before it stored BSON (Java-serialised documents) are not read.
  [[ -f $DATA/mongo/mongo.mv ]] &&
    say "mongo: $DATA/mongo/mongo.mv is an older stand-in's data file, not read by this one (delete it, or stack.sh reset)"
  local heap_mb cache_mb
  heap_mb=$(mongo_heap_mb)
  # H2's page cache: an eighth of the heap (the rest holds requests, cursors and the server).
  cache_mb=$((heap_mb / 8))
  # Resident memory stays under the heap plus 512 MiB: metaspace, netty's direct
  # buffers and the code cache are capped too (docs/local-stack.md, "Memory"). Exceptions keep
  # their messages however often they are thrown: the JIT's preallocated ones have none, and a
  # stand-in up for hours would answer "Unknown error: null" where a fresh one names the problem.
  # (Incoming messages are read into heap buffers: patches/mongo-java-server/0005-….)
  launch mongo java "-Xmx${heap_mb}m" -Xms64m -XX:+ExitOnOutOfMemoryError -XX:MaxMetaspaceSize=64m \
    -XX:MaxDirectMemorySize=128m -XX:ReservedCodeCacheSize=48m -XX:-OmitStackTraceInFastThrow \
    -cp "$MONGO_LIB/launcher:$MONGO_LIB/*" MongoStandIn 127.0.0.1 "$TT_MONGO_PORT" \
    "$DATA/mongo/standin.mv" "$cache_mb"
}

# TT_MONGO_HEAP: a size (768m, 2g) or auto, a sixteenth of the machine's memory within 768 MiB–2 GiB.
mongo_heap_mb() {
  local heap=${TT_MONGO_HEAP:-auto} total_kb mb
  case $heap in
    auto)
      total_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo 2>/dev/null || echo 8388608)
      mb=$((total_kb / 1024 / 16))
      ((mb < 768)) && mb=768
      ((mb > 2048)) && mb=2048
      echo "$mb"
      ;;
    *[gG]) echo $((${heap%[gG]} * 1024)) ;;
    *[mM]) echo "${heap%[mM]}" ;;
    *) die "TT_MONGO_HEAP=$heap is not auto or a size like 768m or 2g" ;;
  esac
}

mongo_healthy() { port_open "$TT_MONGO_PORT"; }
