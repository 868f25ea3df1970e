"""The private kit that both games are built on, owned by neither.

It holds what a game needs around its rules and what both games share: the
seeded generator (:mod:`.rng`, SplitMix64), argument checks (:mod:`.checks`),
the checked JSON reader (:mod:`.jsonread`), the hooks that let value classes
call the layers above them (:mod:`.hooks`), the translation runtime
(:mod:`.i18n`), the presets machinery of rule configurations
(:mod:`.presets`), the frame of game records (:mod:`.recordframe`), the
history of actions kept in states (:mod:`.history`) and the SVG toolkit of the
drawings (:mod:`.svgkit`). The kit imports nothing of either
game; only :mod:`sevenbridge.errors` lies below it.
"""
