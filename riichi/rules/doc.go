// Package rules is the house rules of a Mental Mahjong table: which riichi
// rules the players agreed on, as a value every node can compare.
//
// # Model
//
// A rule set (Set) is a fixed list of switches, each with a name and a
// value: how many red fives (aka=3), whether open tanyao counts
// (kuitan=on), what happens on several rons (ron=double), the starting
// points and the uma, and so on (Names lists them with one line of help
// each). A preset is a named table of switch values, one file per preset
// with the source of every value: tenhou (the default: Tenhou's ranked
// rules, exactly what the engine played before house rules existed),
// majsoul (Mahjong Soul ranked), mleague (M.League), wrc (World Riichi
// Championship rules) and ema (EMA Riichi Competition Rules 2016).
//
// Players pick a preset (--rules NAME) and switch single rules on top of
// it (--rule NAME=VALUE, repeatable): Preset then Apply. The result keeps
// the name of the preset it started from, so Summary can say "Tenhou rules
// (no red fives, open tanyao; tobi=off)".
//
// # Canonical form
//
// Switches returns every switch as "name=value", sorted by name: the
// canonical form that travels in the Hello and the invite together with
// the preset name. Parse(preset, switches) decodes it: two nodes agree on
// the rules exactly when their Sets are == (Set is comparable). Parse and
// Apply refuse unknown names and impossible values with an error that
// lists the valid names or values; a node that receives such a form from a
// peer reports a configuration fault naming the peer (never a blame: the
// form carries no signed evidence of cheating).
//
// # Engine
//
// Game turns a Set into the engine's match rules (riichi/game.Rules, with
// the hand-evaluation options riichi.Rules inside) for a player count and
// match length. Fields of those structs whose zero value is Tenhou's rule
// keep every existing caller on Tenhou's rules.
package rules
