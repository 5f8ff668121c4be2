package riichi
