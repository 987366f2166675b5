package edm

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func TestParseDateTime(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"2013-08-02T17:37:43.0090043Z", "2013-08-02T17:37:43.0090043Z"},
		{"1973-10-04T00:00:00Z", "1973-10-04T00:00:00Z"},
		{"2020-01-01T00:00:00.000000Z", "2020-01-01T00:00:00Z"},      // live: trailing zeros trimmed
		{"2020-01-01T00:00:00.99999Z", "2020-01-01T00:00:00.99999Z"}, // live: kept
		{"2020-01-01T00:00:00", "2020-01-01T00:00:00Z"},              // no zone: UTC
		{"2020-01-01T01:30:00+01:30", "2020-01-01T00:00:00Z"},
		{"2019-12-31T23:00:00-01:00", "2020-01-01T00:00:00Z"},
		{"1601-01-01T00:00:00Z", "1601-01-01T00:00:00Z"},
		{"9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59.9999999Z"},
		{"2024-02-29T12:00:00Z", "2024-02-29T12:00:00Z"},
	}
	for _, tt := range tests {
		got, err := ParseDateTime(tt.in)
		if err != nil {
			t.Errorf("ParseDateTime(%q): %v", tt.in, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("ParseDateTime(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseDateTimeErrors(t *testing.T) {
	tests := []struct {
		in   string
		want Problem
	}{
		{"1600-12-31T23:59:59.9999999Z", OutOfRange},
		{"0001-01-01T00:00:00Z", OutOfRange},
		{"1601-01-01T00:30:00+01:00", OutOfRange},
		{"2023-02-29T00:00:00Z", Malformed},
		{"2020-13-01T00:00:00Z", Malformed},
		{"2020-01-01 00:00:00Z", Malformed},
		{"2020-01-01T00:00:00.Z", Malformed},
		{"2020-01-01T00:00:00.12345678Z", Malformed},
		{"2020-01-01T00:00:00ZZ", Malformed},
		{"2020-01-01", Malformed},
		{"", Malformed},
		{"abcd-01-01T00:00:00Z", Malformed},
	}
	for _, tt := range tests {
		_, err := ParseDateTime(tt.in)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Problem != tt.want {
			t.Errorf("ParseDateTime(%q) error = %v, want problem %d", tt.in, err, tt.want)
		}
	}
}

func TestTicksMatchTime(t *testing.T) {
	for _, s := range []string{"1601-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2021-06-09T01:17:13.2924321Z", "9999-12-31T23:59:59.9999999Z"} {
		ticks, err := ParseDateTime(s)
		if err != nil {
			t.Fatal(err)
		}
		tm, _ := time.Parse(time.RFC3339Nano, s)
		if got := TicksFromTime(tm); got != ticks {
			t.Errorf("%s: TicksFromTime = %d, ParseDateTime = %d", s, got, ticks)
		}
		if !ticks.Time().Equal(tm) {
			t.Errorf("%s: Time() = %v", s, ticks.Time())
		}
	}
	if MinTicks.String() != "1601-01-01T00:00:00Z" || MaxTicks.String() != "9999-12-31T23:59:59.9999999Z" {
		t.Errorf("bounds print as %s and %s", MinTicks, MaxTicks)
	}
}

// The arithmetic calendar of AppendText agrees with time.Format over the
// whole range, leap days and century years included.
func TestAppendTextMatchesTimeFormat(t *testing.T) {
	cases := []Ticks{0, 1, MinTicks, MaxTicks, MaxTicks - 1, unixEpochTicks, unixEpochTicks - 1}
	for _, d := range []string{"1600-02-29", "1700-02-28", "1700-03-01", "1900-03-01", "2000-02-29", "2000-03-01", "2024-12-31", "9999-12-31"} {
		tm, err := time.Parse("2006-01-02", d)
		if err != nil {
			t.Fatal(err)
		}
		for _, off := range []time.Duration{0, -100, time.Hour*23 + 59*time.Minute + 59*time.Second + 999999900} {
			cases = append(cases, TicksFromTime(tm.Add(off)))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		cases = append(cases, Ticks(r.Int64N(int64(MaxTicks)+1)))
	}
	for _, c := range cases {
		if got, want := string(c.AppendText(nil)), string(c.appendTextSlow(nil)); got != want {
			t.Fatalf("ticks %d: %s, time.Format gives %s", int64(c), got, want)
		}
		if got, want := string(c.AppendURLText([]byte("x"))), "x"+strings.ReplaceAll(string(c.appendTextSlow(nil)), ":", "%3A"); got != want {
			t.Fatalf("ticks %d: URL text %s, want %s", int64(c), got, want)
		}
	}
}

// TestDaysBefore: the table of days before each month agrees with adding
// up the months' lengths, for every month of every year the service
// stores.
func TestDaysBefore(t *testing.T) {
	for y := 1; y <= 9999; y++ {
		py := int64(y - 1)
		want := py*365 + py/4 - py/100 + py/400
		for m := 1; m <= 12; m++ {
			if got := daysBefore(y, m); got != want {
				t.Fatalf("daysBefore(%d, %d) = %d, want %d", y, m, got, want)
			}
			want += int64(daysIn(y, m))
		}
	}
}
