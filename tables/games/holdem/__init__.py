"""Hold'em Blackjack: the pots (``pots``), the State with the one copy of the betting rules
(``state``), the game's parser and settlement (``game``); above them the tablet's next steps
(``actions``) and the simulator, both playing through the State."""
