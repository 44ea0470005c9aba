#!/bin/sh
# The public surface of a module: public/open type declarations (struct, enum, class, actor, protocol, typealias) and
# public/open members (functions, properties, initialisers, subscripts; enum cases not counted), read from the source.
# Usage: Scripts/public-surface.sh [DIRECTORY]   (default Sources/RegState)
dir=${1:-Sources/RegState}
types=$(grep -rhE '^\s*(@[A-Za-z]+(\([^)]*\))?\s+)*(public|open)\s+((final|indirect|nonisolated)\s+)*(struct|enum|class|actor|protocol|typealias)\s' "$dir" --include='*.swift' | wc -l)
members=$(grep -rhE '^\s*(@[A-Za-z]+(\([^)]*\))?\s+)*(public|open)\s' "$dir" --include='*.swift' | grep -vE '(public|open)\s+((final|indirect|nonisolated)\s+)*(struct|enum|class|actor|protocol|typealias|extension)\s' | wc -l)
echo "public types: $types"
echo "public members (func/var/let/init/subscript/static, not counting enum cases): $members"
