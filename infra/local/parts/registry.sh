# shellcheck shell=bash
# registry: Apicurio Registry (its Confluent-compatible API) from Maven Central
# (io.apicurio:apicurio-registry-app, the `all` assembly), storing schemas in an H2 file.

REGISTRY_LIB=$LIB/apicurio-registry-$TT_APICURIO_VERSION

registry_var() { echo SCHEMA_REGISTRY_URL; }
registry_address() { echo "http://127.0.0.1:$TT_REGISTRY_PORT/apis/ccompat/v7"; }
registry_port() { echo "$TT_REGISTRY_PORT"; }
registry_take_ports() { take_port TT_REGISTRY_PORT; }

registry_install() {
  [[ -f $REGISTRY_LIB/.complete ]] && return 0
  require mvn "apt-get install maven"
  say "registry: downloading io.apicurio:apicurio-registry-app:$TT_APICURIO_VERSION (all) from Maven Central"
  rm -rf "$REGISTRY_LIB"
  mkdir -p "$REGISTRY_LIB"
  mvn_quiet dependency:copy \
    -Dartifact="io.apicurio:apicurio-registry-app:$TT_APICURIO_VERSION:tar.gz:all" \
    -DoutputDirectory="$REGISTRY_LIB"
  tar -xzf "$REGISTRY_LIB"/apicurio-registry-app-*-all.tar.gz -C "$REGISTRY_LIB"
  rm -f "$REGISTRY_LIB"/apicurio-registry-app-*-all.tar.gz
  touch "$REGISTRY_LIB/.complete"
}

registry_runner() {
  local jar
  for jar in "$REGISTRY_LIB"/quarkus-run.jar "$REGISTRY_LIB"/*-runner.jar; do
    [[ -f $jar ]] && { echo "$jar"; return 0; }
  done
  die "no runnable jar in $REGISTRY_LIB"
}

registry_start() {
  mkdir -p "$DATA/registry"
  launch registry java "-Xmx$TT_REGISTRY_HEAP" -XX:+ExitOnOutOfMemoryError \
    -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$TT_REGISTRY_PORT" \
    -Dapicurio.storage.kind=sql -Dapicurio.storage.sql.kind=h2 \
    "-Dapicurio.datasource.url=jdbc:h2:file:$DATA/registry/registry" \
    -Dapicurio.datasource.username=sa -Dapicurio.datasource.password=sa \
    -jar "$(registry_runner)"
}

registry_healthy() { curl -sf -o /dev/null "$(registry_address)/subjects"; }
