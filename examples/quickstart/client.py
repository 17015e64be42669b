import asyncio
import sys

from mcp import Client, StdioServerParameters


async def main():
    async with Client(StdioServerParameters(command=sys.executable, args=["server.py"])) as c:
        print((await c.read_resource("hello://users/ada")).contents[0].text)


asyncio.run(main())
