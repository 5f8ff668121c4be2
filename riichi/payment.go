package riichi

// Payment is who pays what for a win, honba included, riichi sticks
// (kyotaku) excluded.
//
// Ron: Ron is the total the discarder pays: base points + 300 per honba;
// the tsumo fields are 0.
//
// Tsumo: TsumoNonDealer is what each non-dealer pays and TsumoDealer what
// the dealer pays (0 when the winner is the dealer), each including 100 per
// honba; Ron is 0. Per-player amounts are rounded up to 100 as in Tenhou.
type Payment struct {
	Ron                         int
	TsumoDealer, TsumoNonDealer int
}
