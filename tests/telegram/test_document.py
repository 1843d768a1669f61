"""A message's file attachment reaches Telegram: the real PTB sends sendDocument (multipart) to the stand-in."""

from __future__ import annotations

import pytest

from core.messages import Inbound, Outbound, Response
from tests.telegram.conftest import MakeAdapter
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat, User

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

GROUP = Chat(id=-1001, type="group", title="Club")
ALICE = User(id=111, first_name="Alice", username="alice", language_code="de")
CSV = 'date,game,member\r\n2026-11-29 19:00:00,1,"Jörg, jr."\r\n'.encode("utf-8-sig")


async def test_file_is_sent_as_document_with_its_name_and_bytes(standin: StandIn, make_adapter: MakeAdapter) -> None:
    async def handle(inbound: Inbound) -> Response:
        text = "the throw log" if inbound.args == () else "\n".join(f"row {i:03d}" for i in range(200))
        return Response(messages=(Outbound(inbound.chat, text, file=("kegeln--1001.csv", CSV)),))

    await make_adapter(handle)
    standin.user_message(GROUP, ALICE, "/kegelexport")
    sent = await standin.wait_sent(GROUP.id, "the throw log")
    assert sent.method == "sendDocument" and sent.params["caption"] == "the throw log"
    assert sent.files["document"] == ("kegeln--1001.csv", CSV)
    # a text too long for a caption: the document alone, then the text as messages
    mark = standin.mark()
    standin.user_message(GROUP, ALICE, "/kegelexport long")
    await standin.wait_sent(GROUP.id, "row 199", after=mark)
    calls = standin.sent(GROUP.id, after=mark)
    assert calls[0].method == "sendDocument" and "caption" not in calls[0].params
    assert calls[0].files["document"] == ("kegeln--1001.csv", CSV)
    assert {c.method for c in calls[1:]} == {"sendMessage"}
