"""The commands of a player's own data, /mydata and /forgetme, with their names in every language."""

from __future__ import annotations

from bot.app.turn import Command
from bot.yourdata.export import cmd_mydata
from bot.yourdata.forget import cmd_forgetme

COMMANDS = (
    Command("mydata", (), cmd_mydata,
            aliases=(("de", "meinedaten"), ("sv", "minadata"), ("ru", "моиданные"), ("ru", "moidannye"),
                     ("bg", "моитеданни"), ("bg", "moitedanni"))),
    Command("forgetme", (), cmd_forgetme,
            aliases=(("de", "vergissmich"), ("sv", "glommig"), ("ru", "забудьменя"), ("ru", "zabudmenya"),
                     ("bg", "забравиме"), ("bg", "zabravime"))),
)
