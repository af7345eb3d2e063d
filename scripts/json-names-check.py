#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every JSON member the commands print or plan reads is in
doc/json-names.md (one name per thing, listed in one place).

Usage: scripts/json-names-check.py DOC SOURCE...
The names are the string literals given to cJSON_Add*ToObject(),
cpumgrctl's add_str()/add_set()/add_cpuset(), json_member(),
json_opt_*(), read_cpuset() and the "fields[]" lists of the sources.
Prints each name missing from DOC's table; exits 1 then."""
import re
import sys

# the first table: the names (the one after it lists old names)
doc = open(sys.argv[1]).read().split("\nRenamed")[0]
names = set(re.findall(r"^\| `([A-Za-z]+)` \|", doc, re.M))
call = re.compile(r'(?:cJSON_Add\w*ToObject|add_(?:str|set|cpuset)|json_member|'
                  r'json_opt_\w+|read_cpuset)\(\s*[^,()]+,\s*"([A-Za-z]+)"')
bad = 0
for path in sys.argv[2:]:
    text = open(path).read()
    found = set(call.findall(text))
    for arr in re.findall(r'fields\[\] = \{([^}]*)\}', text, re.S):
        found |= set(re.findall(r'"([A-Za-z]+)"', arr))
    for name in sorted(found - names):
        print("%s: JSON name '%s' is not in %s" % (path, name, sys.argv[1]))
        bad = 1
sys.exit(bad)
