"""One channel per server for a group that many of its sockets listen to.

A tournament's tablets group has 1,250 sockets at a big event, its clock and console group about a
hundred. If each socket joined such a group itself, every announcement would wake each one's
receive loop on the channel layer (a task, a future and a queue per socket, 1,350 per level change),
which is most of what a level change costs a server. Instead the server joins the group once, with a
channel of its own, and hands each message to the sockets here that listen, in one pass.

The layer's guarantees are unchanged: at most once, in order per channel; the sockets' snapshots
stay versioned (``config.live``), so a message lost here is a message lost to each of them.
"""

from __future__ import annotations

import asyncio
import logging

from channels.layers import get_channel_layer

from .snapshot_hub import of_running_loop

logger = logging.getLogger(__name__)


class _Feed:
    def __init__(self, group: str):
        self.group = group
        self.members: set = set()
        self.channel: str | None = None
        self.ready: asyncio.Future | None = None
        self.task: asyncio.Task | None = None


class GroupFeeds:
    """Per process and event loop (like ``snapshot_hub.hub``): group -> this server's channel in it
    and the consumers it feeds (each gets ``await consumer.dispatch(message)``)."""

    def __init__(self):
        self.feeds: dict[str, _Feed] = {}

    async def join(self, group: str, consumer) -> None:
        feed = self.feeds.get(group)
        if feed is None:
            feed = self.feeds[group] = _Feed(group)
        feed.members.add(consumer)
        if feed.ready is None:
            feed.ready = asyncio.get_running_loop().create_future()
            try:
                layer = get_channel_layer()
                feed.channel = await layer.new_channel()
                await layer.group_add(group, feed.channel)
                feed.task = asyncio.ensure_future(self._receive(feed, layer))
            except BaseException as error:
                feed.ready.set_exception(error)
                feed.ready.exception()  # retrieved: the joiners that wait are told below
                if self.feeds.get(group) is feed:
                    del self.feeds[group]
                raise
            feed.ready.set_result(None)
            if not feed.members:  # every socket that asked left while the channel joined
                await self.leave(group, None)
        else:
            # Joined once the server's channel is in the group: a message sent after this returns
            # reaches the consumer, as with its own group_add.
            await asyncio.shield(feed.ready)

    async def leave(self, group: str, consumer) -> None:
        feed = self.feeds.get(group)
        if feed is None:
            return
        feed.members.discard(consumer)
        if feed.members or feed.ready is None or not feed.ready.done():
            return
        del self.feeds[group]
        if feed.task is not None:
            feed.task.cancel()
        if feed.channel is not None:
            try:
                await get_channel_layer().group_discard(group, feed.channel)
            except Exception:  # the layer is down: the group forgets the channel with it
                logger.warning("feed of %s not discarded", group, exc_info=True)

    async def _receive(self, feed: _Feed, layer) -> None:
        while True:
            try:
                message = await layer.receive(feed.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer failed (Redis restarting): try again in a moment
                logger.warning("feed of %s could not receive", feed.group, exc_info=True)
                await asyncio.sleep(1)
                continue
            for consumer in list(feed.members):
                try:
                    await consumer.dispatch(message)
                except Exception:  # one socket's failure must not keep the others from hearing
                    logger.exception("socket %s failed on a message of %s", consumer, feed.group)


_feeds: dict[int, GroupFeeds] = {}


def feeds() -> GroupFeeds:
    """The feeds of the running event loop."""
    return of_running_loop(_feeds, GroupFeeds)
