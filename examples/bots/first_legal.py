#!/usr/bin/env python3
"""A bot for Tetris Arena that plays the first legal placement it is offered.

The smallest complete bot of the arena's protocol, version 1 (docs/writing-a-bot.md):
standard library only. Run it in a tournament with

    arena tournament "column-drop+exec:python3 examples/bots/first_legal.py" column-drop+dellacherie
"""

import json
import sys


def main():
    out = sys.stdout
    out.write(json.dumps({"type": "info", "protocol": 1, "name": "first-legal", "version": "1"}) + "\n")
    out.flush()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "suggest":
            out.write('{"type":"suggestion","index":0}\n')
            out.flush()
        elif kind == "quit":
            return
        # "start" and "stop" need no answer.


if __name__ == "__main__":
    main()
