"""The words every game speaks: cards, money, blackjack hand totals, the catalogue of
games, wagers and finding codes with their rule texts, and the engine's results (findings,
settlements, audits, input errors) with the compiled-ruleset home of every memo. The bottom
of the engine: it imports no other package of it."""
