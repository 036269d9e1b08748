"""The homebrew d100 system (seed 002_80873c4f1892db54.txt): its Django side. The pure rules are
gamerules.homebrew; this app registers the system with campaigns.rule_systems and holds its sheet,
weapon and spell templates, declared attacks and the services an encounter calls
(homebrew.services). Choices: docs/rules/homebrew-d100.md."""
