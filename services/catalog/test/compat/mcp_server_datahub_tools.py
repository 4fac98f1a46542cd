"""Runs the ecosystem's MCP server (mcp-server-datahub, stdio) against the catalog and calls its tools.

Usage: mcp_server_datahub_tools.py <catalog url> <calls as JSON: [[tool, arguments], ...]>

The server is started as users start it (its console script, DATAHUB_GMS_URL and DATAHUB_GMS_TOKEN in
the environment) and driven with the `mcp` package's stdio client. Prints one JSON line: the tools the
server lists and, per call, whether it is an error and its text.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main() -> None:
    url, calls = sys.argv[1], json.loads(sys.argv[2])
    server = os.path.join(os.path.dirname(sys.executable), "mcp-server-datahub")
    env = {**os.environ, "DATAHUB_GMS_URL": url}
    params = StdioServerParameters(command=server, args=[], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            report = {"tools": sorted(t.name for t in tools.tools), "calls": []}
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)
                text = "".join(c.text for c in result.content if getattr(c, "type", "") == "text")
                report["calls"].append({"name": name, "isError": bool(result.isError), "text": text})
    print(json.dumps(report))


asyncio.run(main())
