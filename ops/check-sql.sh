#!/usr/bin/env bash
# Lists SQL string literals in Swift files under Sources/ that are not a module's statements file
# (`*Statements.swift`) or generated migrations (Sources/Migrations/Generated/), as file:line, and
# exits 1 if there are any: each module keeps its SQL in one statements file.
#
# A literal counts as SQL when it starts (after blanks) with an upper-case statement keyword
# followed by a blank, `(`, `;` or an interpolation: `"SELECT …"`, `"DROP DATABASE \(…)"`; a bare
# `"BEGIN"`, `"COMMIT"` or `"ROLLBACK"` counts too (a bare `"DELETE"` is an HTTP method). In a
# multi-line `"""` literal the first non-blank line counts. Comment lines are skipped, and so is
# a line that carries the marker `check-sql: not SQL` (prose such as an error message).
set -euo pipefail
cd "$(dirname "$0")/.."

found=$(find Sources -name '*.swift' -not -path 'Sources/Migrations/Generated/*' -not -name '*Statements.swift' -print0 \
  | sort -z \
  | xargs -0 perl -ne '
      BEGIN {
        $kw = qr/SELECT|INSERT|UPDATE|DELETE|WITH|LISTEN|NOTIFY|CREATE|DROP|ALTER|GRANT|SET|TRUNCATE|COPY|LOCK|BEGIN|COMMIT|ROLLBACK/;
      }
      if ($ARGV ne $file) { $file = $ARGV; $line = 0; $ml = 0 }
      $line++;
      if ($ml) {                                   # inside a multi-line literal
        if (/^\s*"""/) { $ml = 0 }
        elsif ($ml == 1 && /\S/) {                 # its first non-blank line
          if (/^\s*(?:$kw)\b/) { print "$file:$open\n" }
          $ml = 2;
        }
      } elsif (!/^\s*\/\// && !/check-sql: not SQL/) {
        if (/(?<!\\)#*"[ \t]*(?:(?:$kw)(?=[ \t;(]|\\\(|\\n)|(?:BEGIN|COMMIT|ROLLBACK)")/) {
          print "$file:$line\n";
        }
        if (/"""#*\s*$/) { $ml = 1; $open = $line }  # opens a multi-line literal
      }
    ')
[ -z "$found" ] && exit 0
echo "$found"
exit 1
