package riichi

// Tenhou yaku ids, as used in the mjlog <AGARI yaku=...> (yaka) and
// yakuman= attributes.
const (
	YakuMenzenTsumo     = 0
	YakuRiichi          = 1
	YakuIppatsu         = 2
	YakuChankan         = 3
	YakuRinshan         = 4
	YakuHaitei          = 5
	YakuHoutei          = 6
	YakuPinfu           = 7
	YakuTanyao          = 8
	YakuIipeikou        = 9
	YakuSeatEast        = 10 // seat wind East; South 11, West 12, North 13
	YakuRoundEast       = 14 // round wind East; South 15, West 16, North 17
	YakuHaku            = 18
	YakuHatsu           = 19
	YakuChun            = 20
	YakuDoubleRiichi    = 21
	YakuChiitoitsu      = 22
	YakuChanta          = 23
	YakuIttsu           = 24
	YakuSanshoku        = 25
	YakuSanshokuDoukou  = 26
	YakuSankantsu       = 27
	YakuToitoi          = 28
	YakuSanankou        = 29
	YakuShousangen      = 30
	YakuHonroutou       = 31
	YakuRyanpeikou      = 32
	YakuJunchan         = 33
	YakuHonitsu         = 34
	YakuChinitsu        = 35
	YakuRenhou          = 36
	YakuTenhou          = 37
	YakuChiihou         = 38
	YakuDaisangen       = 39
	YakuSuuankou        = 40
	YakuSuuankouTanki   = 41
	YakuTsuuiisou       = 42
	YakuRyuuiisou       = 43
	YakuChinroutou      = 44
	YakuChuuren         = 45
	YakuJunseiChuuren   = 46
	YakuKokushi         = 47
	YakuKokushi13       = 48
	YakuDaisuushii      = 49
	YakuShousuushii     = 50
	YakuSuukantsu       = 51
	YakuDora            = 52
	YakuUraDora         = 53
	YakuAkaDora         = 54
)

// Yaku is one entry of a win's yaku list: Tenhou id (Yaku* constants) and
// its han (dora entries carry the dora count, possibly 0).
type Yaku struct {
	ID, Han int
}
