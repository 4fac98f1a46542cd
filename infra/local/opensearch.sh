# shellcheck shell=bash
# OpenSearch 2.x, one node, from the integration-test zip on Maven Central. Sourced by up.sh.
#
# That zip carries only the transport-netty4 module. The modules a catalog index needs (analysis-common for
# custom analyzers, mapper-extras, reindex for *_by_query, lang-painless for scripts) are published on Maven
# Central as jars; they are assembled here into module directories, with the descriptor and security policy
# each one has in the full distribution.

OPENSEARCH_CACHE="$CACHE_DIR/opensearch-$OPENSEARCH_VERSION"
OPENSEARCH_DIST="$OPENSEARCH_CACHE/dist"
OPENSEARCH_STATE="$STATE_DIR/opensearch"
OPENSEARCH_CLUSTER=catalog-local

# name|artifact|plugin class|extended plugins|description
OPENSEARCH_MODULES=(
  "lang-painless|org.opensearch.plugin:lang-painless|org.opensearch.painless.PainlessPlugin||An easy, safe and fast scripting language for OpenSearch"
  "analysis-common|org.opensearch.plugin:analysis-common|org.opensearch.analysis.common.CommonAnalysisPlugin|lang-painless|Adds \"built in\" analyzers to OpenSearch."
  "mapper-extras|org.opensearch.plugin:mapper-extras-client|org.opensearch.index.mapper.MapperExtrasPlugin||Adds advanced field mappers"
  "reindex|org.opensearch.plugin:reindex-client|org.opensearch.index.reindex.ReindexPlugin||The Reindex module adds APIs to reindex from one index to another or update documents in place."
)

opensearch_module_policy() {
  case "$1" in
    lang-painless)
      cat <<'EOF'
grant {
  // needed to generate runtime classes
  permission java.lang.RuntimePermission "createClassLoader";
  // needed to find the classloader to load allowlisted classes from
  permission java.lang.RuntimePermission "getClassLoader";
};
EOF
      ;;
    reindex)
      cat <<'EOF'
grant {
  // reindex opens socket connections using the rest client
  permission java.net.SocketPermission "*", "connect";
};
grant codeBase "${codebase.opensearch-rest-client}" {
  permission java.net.NetPermission "getProxySelector";
};
grant codeBase "${codebase.httpasyncclient}" {
  permission java.net.NetPermission "getProxySelector";
};
EOF
      ;;
  esac
}

# Strips the version from a jar file name: asm-util-9.7.jar -> asm-util.
jar_base() { basename "$1" | sed -E 's/-[0-9][^/]*\.jar$//'; }

# Resolves every module with its own dependencies in one Maven run (a reactor with one POM per module).
opensearch_add_modules() {
  local dist="$1" build="$OPENSEARCH_CACHE/modules-build" spec name artifact classname extended description
  local modules="" dir jar
  rm -rf "$build"
  for spec in "${OPENSEARCH_MODULES[@]}"; do
    IFS='|' read -r name artifact classname extended description <<<"$spec"
    modules+="    <module>$name</module>"$'\n'
    mkdir -p "$build/$name"
    cat >"$build/$name/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.catalog-infra</groupId>
  <artifactId>opensearch-module-$name</artifactId>
  <version>$OPENSEARCH_VERSION</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>${artifact%%:*}</groupId>
      <artifactId>${artifact#*:}</artifactId>
      <version>$OPENSEARCH_VERSION</version>
      <exclusions>
        <exclusion>
          <groupId>org.opensearch</groupId>
          <artifactId>opensearch</artifactId>
        </exclusion>
      </exclusions>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-dependency-plugin</artifactId>
        <configuration>
          <outputDirectory>$dist/modules/$name</outputDirectory>
          <includeScope>runtime</includeScope>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
EOF
  done
  cat >"$build/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.catalog-infra</groupId>
  <artifactId>opensearch-modules</artifactId>
  <version>$OPENSEARCH_VERSION</version>
  <packaging>pom</packaging>
  <modules>
$modules  </modules>
</project>
EOF
  log "opensearch: resolving modules ${OPENSEARCH_MODULES[*]%%|*} with Maven"
  mvn_quiet "$OPENSEARCH_STATE/logs/install.log" -f "$build/pom.xml" "$MAVEN_DEPENDENCY_PLUGIN:copy-dependencies"
  for spec in "${OPENSEARCH_MODULES[@]}"; do
    IFS='|' read -r name artifact classname extended description <<<"$spec"
    dir="$dist/modules/$name"
    compgen -G "$dir/*.jar" >/dev/null || die "opensearch: module $name was not resolved"
    # Jars the server already has must not be repeated in a module (OpenSearch refuses duplicate classes).
    for jar in "$dir"/*.jar; do
      if compgen -G "$dist/lib/$(jar_base "$jar")-[0-9]*.jar" >/dev/null; then rm -f "$jar"; fi
    done
    cat >"$dir/plugin-descriptor.properties" <<EOF
description=$description
version=$OPENSEARCH_VERSION
name=$name
classname=$classname
java.version=11
opensearch.version=$OPENSEARCH_VERSION
custom.foldername=
extended.plugins=$extended
has.native.controller=false
EOF
    opensearch_module_policy "$name" >"$dir/plugin-security.policy"
    [[ -s "$dir/plugin-security.policy" ]] || rm -f "$dir/plugin-security.policy"
  done
  rm -rf "$build"
}

opensearch_install_locked() {
  [[ -f "$OPENSEARCH_CACHE/.complete" ]] && return 0
  command -v unzip >/dev/null || die "opensearch: unzip not found (apt-get install unzip)"
  log "opensearch: resolving org.opensearch.distribution.integ-test-zip:opensearch:$OPENSEARCH_VERSION:zip with Maven"
  rm -rf "$OPENSEARCH_CACHE"
  mkdir -p "$OPENSEARCH_CACHE/download"
  mvn_quiet "$OPENSEARCH_STATE/logs/install.log" "$MAVEN_DEPENDENCY_PLUGIN:copy" \
    "-Dartifact=org.opensearch.distribution.integ-test-zip:opensearch:$OPENSEARCH_VERSION:zip" \
    -DoutputDirectory="$OPENSEARCH_CACHE/download"
  unzip -q "$OPENSEARCH_CACHE/download/opensearch-$OPENSEARCH_VERSION.zip" -d "$OPENSEARCH_CACHE/unpack"
  local dist="$OPENSEARCH_CACHE/unpack/opensearch-$OPENSEARCH_VERSION"
  [[ -x "$dist/bin/opensearch" ]] || die "opensearch: unexpected zip layout"
  # The zip stays in ~/.m2; no second copy here.
  rm -rf "$OPENSEARCH_CACHE/download"
  opensearch_add_modules "$dist"
  mv "$dist" "$OPENSEARCH_DIST"
  rmdir "$OPENSEARCH_CACHE/unpack"
  touch "$OPENSEARCH_CACHE/.complete"
  log "opensearch: cached in $OPENSEARCH_DIST"
}

opensearch_install() {
  mkdir -p "$OPENSEARCH_STATE/logs"
  [[ -f "$OPENSEARCH_CACHE/.complete" ]] && return 0
  with_lock "$CACHE_DIR/.opensearch.lock" opensearch_install_locked
}

# OpenSearch refuses to run as root: it runs as an unprivileged system user when these scripts run as root.
opensearch_as_root() { ((EUID == 0)); }

ensure_search_user() {
  opensearch_as_root || return 0
  id -u "$SEARCH_USER" >/dev/null 2>&1 && return 0
  log "opensearch: creating system user $SEARCH_USER"
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
    "$SEARCH_USER" || id -u "$SEARCH_USER" >/dev/null 2>&1 || die "could not create user $SEARCH_USER"
}

opensearch_write_config() {
  local conf="$OPENSEARCH_STATE/config" logs="$OPENSEARCH_STATE/logs"
  cat >"$conf/opensearch.yml" <<EOF
# Generated by infra/local/opensearch.sh on each start.
cluster.name: $OPENSEARCH_CLUSTER
node.name: $OPENSEARCH_CLUSTER-1
path.data: $OPENSEARCH_STATE/data
path.logs: $logs
network.host: 127.0.0.1
http.port: $OPENSEARCH_PORT
discovery.type: single-node
cluster.routing.allocation.disk.threshold_enabled: false
action.destructive_requires_name: false
# Every test catalog creates an index per registry entity (72): the default 1,000 shards fill up fast.
cluster.max_shards_per_node: 20000
EOF
  # The shipped JVM options, with the heap left to OPENSEARCH_JAVA_OPTS and relative paths made absolute.
  sed -E \
    -e '/^-Xm[sx]/d' \
    -e '/HeapDumpOnOutOfMemoryError|HeapDumpPath/d' \
    -e "s#ErrorFile=logs/#ErrorFile=$logs/#" \
    -e "s#file=logs/gc.log(:[^:]*):.*#file=$logs/gc.log\\1:filecount=2,filesize=16m#" \
    "$OPENSEARCH_STATE/home/config/jvm.options" >"$conf/jvm.options"
}

opensearch_start() {
  require_free_port opensearch "$OPENSEARCH_PORT"
  ensure_search_user
  local home="$OPENSEARCH_STATE/home" conf="$OPENSEARCH_STATE/config" pidfile
  if [[ ! -x "$home/bin/opensearch" ]]; then
    # The cache may sit under a home directory the service user cannot enter, so the node gets its own copy.
    rm -rf "$home"
    mkdir -p "$OPENSEARCH_STATE"
    cp -a "$OPENSEARCH_DIST" "$home"
  fi
  [[ -d "$conf" ]] || cp -a "$home/config" "$conf"
  mkdir -p "$OPENSEARCH_STATE/data" "$OPENSEARCH_STATE/logs" "$OPENSEARCH_STATE/tmp" "$OPENSEARCH_STATE/run"
  chmod 755 "$OPENSEARCH_STATE"
  opensearch_write_config
  pidfile="$(pid_file opensearch)"
  rm -f "$pidfile"
  # The inner shell writes its own PID, then becomes the launcher, which becomes the JVM (same PID).
  # shellcheck disable=SC2016 # expanded by the inner shell
  local cmd=(env "OPENSEARCH_PATH_CONF=$conf" "OPENSEARCH_TMPDIR=$OPENSEARCH_STATE/tmp"
    "OPENSEARCH_JAVA_HOME=$(java_home)" "OPENSEARCH_JAVA_OPTS=$OPENSEARCH_HEAP_OPTS"
    bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$home/bin/opensearch")
  if opensearch_as_root; then
    chown -R "$SEARCH_USER:" "$conf" "$OPENSEARCH_STATE/data" "$OPENSEARCH_STATE/logs" \
      "$OPENSEARCH_STATE/tmp" "$OPENSEARCH_STATE/run"
    cmd=(runuser -u "$SEARCH_USER" -- "${cmd[@]}")
  fi
  log "opensearch: starting on 127.0.0.1:$OPENSEARCH_PORT as user $(if opensearch_as_root; then echo "$SEARCH_USER"; else id -un; fi)"
  # Loopback nodes only warn about a low file limit; raise it where allowed anyway.
  ulimit -n 65535 2>/dev/null || true
  setsid "${cmd[@]}" >>"$OPENSEARCH_STATE/logs/stdout.log" 2>&1 </dev/null 8>&- 9>&- &
  local _
  for _ in $(seq 1 50); do
    [[ -s "$pidfile" ]] && break
    sleep 0.1
  done
  [[ -s "$pidfile" ]] || die "opensearch: the process did not start"
  save_port opensearch "$OPENSEARCH_PORT"
}

opensearch_wait() {
  local deadline=$((SECONDS + READY_TIMEOUT)) port url
  port="$(saved_port opensearch || echo "$OPENSEARCH_PORT")"
  url="http://127.0.0.1:$port/_cluster/health?wait_for_status=yellow&timeout=2s"
  until curl -fsS -o /dev/null --max-time 5 "$url" 2>/dev/null; do
    is_alive opensearch || return 1
    ((SECONDS < deadline)) || return 1
    sleep 1
  done
}
