"""Every setting of every game: the cards' pay tables, one frozen ruleset dataclass per game
with the card's figures as defaults, and the JSON reader and writer the apps store ruleset
versions with. Above the vocabulary, below the games."""
