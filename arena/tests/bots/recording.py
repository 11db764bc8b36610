#!/usr/bin/env python3
"""A test bot that plays the first legal placement and records the conversation: every line
it reads (prefixed `arena> `) and writes (`bot>   `) is appended to TRANSCRIPT. The protocol
page's transcript (docs/writing-a-bot.md) is such a recording, checked by a test.

    recording.py TRANSCRIPT
"""

import json
import sys

transcript = open(sys.argv[1], "a")


def say(line):
    transcript.write("bot>   " + line + "\n")
    transcript.flush()
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


say(json.dumps({"type": "info", "protocol": 1, "name": "first-legal", "version": "1"}))
for line in sys.stdin:
    transcript.write("arena> " + line)
    transcript.flush()
    message = json.loads(line)
    if message["type"] == "suggest":
        say(json.dumps({"type": "suggestion", "index": 0}))
    elif message["type"] == "quit":
        break
