#!/usr/bin/env bash
# The Java MachinePlayer of the 6.170 handout (java/, docs/java.md), built
# with the JDK alone (javac, jar, javadoc: no Maven or Gradle).
#
#   scripts/java.sh                 target/java/antichess.jar
#   scripts/java.sh doc             also the javadoc, in target/java/doc
#   scripts/java.sh test [ENGINE]   the jar, then java/test (RefereeTest) against
#                                   ENGINE (default target/release/antichess)
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/java
mode=${1:-jar}
for tool in javac jar java; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "java.sh: $tool is missing: install a JDK 11 or later (Debian: default-jdk-headless)" >&2
        exit 1
    }
done

# The classes target Java 11; every public member must have its javadoc,
# and every lint warning is an error, except those newer JDKs add about
# what the handout fixes (JDK 21's this-escape: the class is not final) or
# about the target's age.
lint=-Xlint:all,-options
javac_major=$(javac -version 2>&1 | sed -E 's/^javac ([0-9]+).*/\1/')
if [ "${javac_major:-0}" -ge 21 ] 2>/dev/null; then lint=$lint,-this-escape; fi
rm -rf "$out/classes"
mkdir -p "$out/classes"
javac --release 11 -encoding UTF-8 "$lint" -Xdoclint:all/protected -Werror \
    -d "$out/classes" java/src/antichess/*.java
# The sources go in too, as the handout's jars carry them.
jar --create --file "$out/antichess.jar" -C "$out/classes" . -C java/src .
echo "java.sh: built $out/antichess.jar" >&2

case $mode in
jar) ;;
doc)
    rm -rf "$out/doc"
    javadoc -quiet -encoding UTF-8 -d "$out/doc" -sourcepath java/src antichess
    echo "java.sh: javadoc in $out/doc/index.html" >&2
    ;;
test)
    engine=${2:-target/release/antichess}
    [ -x "$engine" ] || {
        echo "java.sh: no engine at $engine (cargo build --release)" >&2
        exit 1
    }
    rm -rf "$out/test-classes"
    mkdir -p "$out/test-classes"
    javac --release 11 -encoding UTF-8 "$lint" -Werror -cp "$out/antichess.jar" \
        -d "$out/test-classes" java/test/referee/*.java
    java -cp "$out/antichess.jar:$out/test-classes" \
        -Dantichess.engine="$engine" -Dantichess.jar="$out/antichess.jar" -Dantichess.readme=README.md \
        referee.RefereeTest
    ;;
*)
    echo "java.sh: unknown mode '$mode' (jar, doc or test)" >&2
    exit 2
    ;;
esac
