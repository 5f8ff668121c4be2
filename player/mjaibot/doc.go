// Package mjaibot seats an external mjai bot (Mortal's mortal.py, akochan's
// pipe mode, mjai-manue) at a Mental Mahjong table: a protocol.Player whose
// decisions come from a child process speaking mjai JSON Lines (package
// record/mjai) on its standard input and output.
//
// # What the bot sees
//
// The bot learns only what the player's own node can see. The events are
// built from the player's private views of the kyoku (the Player is a
// protocol.Observer: the game shows it a fresh view after every step), in
// which the player's own tiles are
// revealed and every other player's concealed tiles are hidden until the
// protocol shows them: start_game with "id" = the seat, start_kyoku with
// the other hands as "?", the other players' tsumo as "?", every public
// discard, call, kan, dora indicator, riichi, win and draw as it happens,
// end_kyoku after each hand and end_game when the player is closed. A
// three-player game is sent in the form of package record/mjai's Three players:
// four seats, the empty one with 0 points and 13 "?" tiles, and every kita
// as nukidora before its replacement tsumo. Red fives are the table's
// (riichi.Rules.Reds): "5pr" names only an id the rules play red, in the
// events and in the bot's replies (no red fives: 52 is "5p"; four: 53 is
// "5pr" too).
//
// # When it answers
//
// As Mortal, akochan and mjai-manue do over stdio, the bot writes a line
// only when it can act. The node marks every event with Mortal's
// "can_act" extension: true on the last event before a decision it
// waits for, false everywhere else. It asks only when the seat has a real
// choice: on its turn (dahai, reach then dahai, hora, ankan, kakan,
// ryukyoku for kyuushu kyuuhai, nukidora for kita in sanma) and on a tile
// on offer it could call or ron (chi, pon, daiminkan, hora, none). Passing when nothing is possible
// and the tenpai/noten declaration at an exhaustive draw are made by the
// node. A reach reply is echoed back as a reach event (can_act true) and
// the bot then names its riichi discard, as in mjai.
//
// # Faults
//
// The node still decides legality: a reply that is malformed, illegal or
// not a reply gets the node's timeout default (pass, discard the drawn
// tile, declare), with a message naming the bot; a reply that does not
// come before the decision timeout is left to the protocol, which acts
// the same way and marks the message timed out. Lines sent when the bot
// was not asked are dropped when the next question is asked. Lines longer
// than Config.MaxLine are dropped, and a flood beyond 64 unread lines is
// dropped, without stopping the game. A bot that exits, or stops reading
// for Config.WriteTimeout, is reported and the seat plays on with
// Config.Fallback (the built-in bot), so no game is lost to a crashed bot.
package mjaibot
