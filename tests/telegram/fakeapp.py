"""A tiny scripted `handle` for proving the adapter's plumbing without the real App."""

from __future__ import annotations

from core.messages import Actor, Chat, Inbound, Outbound, OutButton, Response


class FakeApp:
    """Records every Inbound and answers a few scripted commands. The adapter's report that a message
    it was asked to delete stays (`Inbound.undeleted`) is kept apart, in `undeleted`."""

    def __init__(self) -> None:
        self.inbounds: list[Inbound] = []
        self.undeleted: list[Inbound] = []
        self.edits = 0

    async def handle(self, inbound: Inbound) -> Response:
        if inbound.undeleted:
            self.undeleted.append(inbound)
            return Response()
        self.inbounds.append(inbound)
        chat, actor = inbound.chat, inbound.actor
        if inbound.action is not None:
            return self._action(inbound)
        match inbound.command:
            case "echo":
                return say(chat, "echo: " + " ".join(inbound.args))
            case "button":
                return Response(messages=(Outbound(to=chat, text="Pick one", buttons=((
                    OutButton("Yes", "g:1:yes"), OutButton("No", "g:1:no"),
                ), (OutButton("Enter code", "g:1:secret", prompt="Your code"),
                    OutButton("Rules", "x", url="https://example.org/rules")))),))
            case "dm":
                return Response(messages=(Outbound(
                    to=actor, text="Your secret code, please",
                    buttons=((OutButton("Random", "g:1:random"),),),
                    fallback=Outbound(
                        to=chat, text=f"{actor.name}, open the private chat",
                        buttons=((OutButton("Set secret", "g:1:secret", prompt="Code"),),)),
                ),))
            case "dmonly":
                return Response(messages=(Outbound(to=actor, text="private only"),))
            case "burst":
                n = int(inbound.args[0]) if inbound.args else 5
                return Response(messages=tuple(
                    Outbound(to=chat, text=f"line {i}") for i in range(n)))
            case "edit":
                self.edits += 1
                return Response(messages=(Outbound(
                    to=chat, text=f"board v{self.edits}", edit_key="board",
                    buttons=((OutButton("Refresh", "g:1:board"),),)),))
            case "photo":
                return Response(messages=(Outbound(to=chat, text="a picture", image=PNG),))
            case "long":
                return say(chat, "\n".join(f"row {i:04d} " + "x" * 60 for i in range(200)))
            case "boom":
                raise RuntimeError("the App has a bug")
            case "notice":
                return Response(notice="only for you")
            case None:
                text = inbound.text or ""
                if text.isdigit() and not chat.private:
                    return Response(delete_inbound=True, notice="Send your code privately")
                if chat.private:
                    return say(chat, "got it")
                return Response()
        return Response()

    def _action(self, inbound: Inbound) -> Response:
        match inbound.action:
            case "g:1:yes":
                return say(inbound.chat, f"{inbound.actor.name} said yes")
            case "g:1:no":
                return Response(notice="Not for you")
            case "g:1:secret":
                return say(inbound.actor, "Type your secret code here")
            case "g:1:boom":
                raise RuntimeError("bug in a button")
        return Response()


def say(to: Chat | Actor, text: str) -> Response:
    return Response(messages=(Outbound(to=to, text=text),))


# A 1x1 transparent PNG.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6300010000050001"
    "0d0a2db40000000049454e44ae426082"
)
