package invite

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/invite/pb"
	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/settings"
	spb "github.com/mentalmj/mentalmj/riichi/settings/pb"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// sanmaTonpuu is a game unlike the default in every field.
func sanmaTonpuu(t *testing.T) settings.Settings {
	t.Helper()
	r, err := rules.Preset("majsoul")
	if err != nil {
		t.Fatal(err)
	}
	return settings.Settings{Players: 3, Tonpuu: true, Hands: 2, Rules: r, Time: timecontrol.Control{Base: 3 * time.Second, Bank: 20 * time.Second}, PrivateHands: true}
}

// An invite carries the host's game and nickname through Encode and
// Parse; Describe shows both.
func TestInviteSettingsRoundTrip(t *testing.T) {
	t.Parallel()
	inv := testInvite(t)
	st := sanmaTonpuu(t)
	inv.Players, inv.Settings, inv.Nick = 3, &st, "alice"
	s, err := inv.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	if got.Settings == nil || *got.Settings != st || got.Nick != "alice" {
		t.Fatalf("parsed %+v", got)
	}
	if d := got.Describe(); d != "alice's table "+inv.Table+": "+st.Summary() {
		t.Errorf("Describe() = %q", d)
	}
	// Settings for another count than the invite's are malformed.
	inv.Players = 4
	if _, err := inv.Encode(); !errors.Is(err, ErrMalformed) {
		t.Errorf("four-player invite with sanma settings: %v", err)
	}
}

// An invite whose game this build cannot honour (an unknown switch,
// here written by hand into the wire form) is refused with
// settings.ErrUnknown, naming the switch.
func TestInviteUnknownRule(t *testing.T) {
	t.Parallel()
	inv := testInvite(t)
	st := settings.Default()
	inv.Settings = &st
	m := st.Proto()
	m.Rules.Switches = []string{"moonlight=on"}
	s := encodeRaw(t, inv, m)
	if _, err := Parse(s); !errors.Is(err, settings.ErrUnknown) || !strings.Contains(err.Error(), "moonlight") {
		t.Fatalf("Parse: %v, want settings.ErrUnknown naming the switch", err)
	}
}

// A guest refuses a signed list whose game is not its invite's.
func TestSameSettings(t *testing.T) {
	t.Parallel()
	a, b := settings.Default(), settings.Default()
	b.Hands = 3
	for _, c := range []struct {
		inv, list *settings.Settings
		ok        bool
	}{{nil, nil, true}, {&a, &a, true}, {&a, &b, false}, {&a, nil, false}, {nil, &a, false}} {
		if err := sameSettings(c.inv, c.list); (err == nil) != c.ok || err != nil && !errors.Is(err, ErrMalformed) {
			t.Errorf("sameSettings(%v, %v) = %v", c.inv, c.list, err)
		}
	}
}

// The host's signature covers the seating list's settings: changed after
// signing, the list no longer verifies.
func TestSeatingSettingsSigned(t *testing.T) {
	t.Parallel()
	keys, s := table4(t)
	st := settings.Default()
	s.Settings = &st
	data, err := SignSeating(keys[0], s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := VerifySeating(data, s.Table, s.Host, s.Seats[1].ID)
	if err != nil || got.Settings == nil || *got.Settings != st {
		t.Fatalf("VerifySeating: %+v %v", got.Settings, err)
	}
	other := st
	other.Hands = 7
	m := toPB(s)
	m.Settings = other.Proto()
	if _, err := VerifySeating(signedWith(t, data, m), s.Table, s.Host, s.Seats[1].ID); !errors.Is(err, ErrBadSignature) {
		t.Errorf("a list with its settings changed after signing: %v, want ErrBadSignature", err)
	}
}

// A guest who declines is reported to the host and never seated.
func TestMeetingDecline(t *testing.T) {
	t.Parallel()
	ctx := ctxFor(t, 30*time.Second)
	_, m := openMeeting(t)
	inv := m.Invite()
	g := guestOf(t, inv)
	if err := Decline(ctx, g.n.Host(), inv, "yan", nil); err != nil {
		t.Fatal(err)
	}
	arrivals := make(chan Arrival, 4)
	gctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, _ = m.Gather(gctx, func(a Arrival) { arrivals <- a })
	select {
	case a := <-arrivals:
		if !a.Declined || a.Seat.Nick != "yan" || a.Seat.ID != g.n.ID() || a.Count != 1 {
			t.Fatalf("arrival %+v, want yan declining with 1 at the table", a)
		}
	default:
		t.Fatal("the host was not told")
	}
}

// encodeRaw writes an invite string for inv whose settings are m, by hand
// (protobuf, checksum, base32), so a test can send what Encode refuses.
func encodeRaw(t *testing.T, inv Invite, m *spb.Settings) string {
	t.Helper()
	msg := &pb.Invite{Table: inv.Table, Host: []byte(inv.Host), Settings: m}
	for _, a := range inv.Addrs {
		msg.Addrs = append(msg.Addrs, a.Bytes())
	}
	body, err := proto.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	return "mmj1" + strings.ToLower(b32.EncodeToString(append(body, checksum("mmj1", body)...)))
}

// signedWith returns the signed seating data with its list replaced by m
// and the original signature kept.
func signedWith(t *testing.T, data []byte, m *pb.Seating) []byte {
	t.Helper()
	var signed pb.SignedSeating
	if err := proto.Unmarshal(data, &signed); err != nil {
		t.Fatal(err)
	}
	body, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	signed.Seating = body
	out, err := proto.Marshal(&signed)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
