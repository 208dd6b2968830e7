# Sourced by the infra/bin commands: picks a JDK >= 21 and the infra runtime classpath, building it when it is
# missing or older than the sources (no `mvn install` needed: the classpath points into each module's target/).
# After sourcing: $JAVA (java >= 21), $ROOT (the project root), $INFRA_CP (the infra modules' classes and dependencies).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

java_major() { "$1" -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit}'; }

pick_jdk() {
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  local on_path; on_path="$(command -v java 2>/dev/null || true)"
  [ -n "$on_path" ] && candidates+=("$(cd "$(dirname "$(readlink -f "$on_path")")/.." && pwd)")
  for d in /usr/lib/jvm/* /opt/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$d" ] && candidates+=("$d")
  done
  for d in "${candidates[@]}"; do
    if [ -x "$d/bin/java" ] && [ "$(java_major "$d/bin/java")" -ge 21 ] 2>/dev/null; then
      echo "$d"; return 0
    fi
  done
  return 1
}

JAVA_HOME="$(pick_jdk)" || { echo "No JDK >= 21 found: install one (Temurin 21 or later) or set JAVA_HOME." >&2; exit 1; }
export JAVA_HOME
JAVA="$JAVA_HOME/bin/java"

# The commands run the benchmarks module (which holds the local stack and the fakes through its dependencies) and the
# build checks' main classes (the SAM build rehearsal). A command that needs less names its modules first
# (TABLEWRIGHT_CP_MODULES="infra/test-support" for DynamoDB Local), so it builds no function jar it does not run.
read -r -a CP_MODULES <<< "${TABLEWRIGHT_CP_MODULES:-infra/benchmarks infra/build-checks}"
CP_FILE="$ROOT/${CP_MODULES[0]}/target/classpath.txt"
needs_build() {
  local m
  for m in "${CP_MODULES[@]}"; do [ -f "$ROOT/$m/target/classpath.txt" ] || return 0; done
  [ -n "$(find "$ROOT/pom.xml" "$ROOT/shared" "$ROOT/functions" "$ROOT/infra" \
      -path '*/target' -prune -o -path '*/node_modules' -prune -o -path "$ROOT/infra/*/src/test" -prune -o \
      \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$CP_FILE" -print -quit 2>/dev/null)" ]
}
if [ "${TABLEWRIGHT_NO_BUILD:-}" != "1" ] && needs_build; then
  selection="$(IFS=,; echo "${CP_MODULES[*]}")"
  command -v mvn >/dev/null || { echo "infra is not built and Maven is not on PATH: install Maven 3.8+ or run: mvn -B -q package -DskipTests" >&2; exit 1; }
  echo "Building (sources changed since the last build): mvn -B -q -pl $selection -am package -DskipTests" >&2
  (cd "$ROOT" && PATH="$JAVA_HOME/bin:$PATH" mvn -B -q -pl "$selection" -am package -DskipTests >&2) || exit 1
  touch "$CP_FILE"
fi
INFRA_CP=""
for m in "${CP_MODULES[@]}"; do
  INFRA_CP="$INFRA_CP${INFRA_CP:+:}$ROOT/$m/target/classes:$(cat "$ROOT/$m/target/classpath.txt")"
done
