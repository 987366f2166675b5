package wire

import (
	"testing"
	"time"
)

// FuzzParseFixdate: whatever parseFixdate takes, time.Parse reads to the
// same instant; whatever it leaves, ParseHTTPTime still reads as the three
// layouts do.
func FuzzParseFixdate(f *testing.F) {
	for _, s := range []string{
		"Sun, 06 Nov 1994 08:49:37 GMT", "sun, 06 nov 1994 08:49:37 GMT", "SUN, 06 NOV 1994 08:49:37 GMT",
		"Mon, 29 Feb 2024 23:59:59 GMT", "Mon, 29 Feb 2023 23:59:59 GMT", "Mon, 31 Apr 2024 00:00:00 GMT",
		"Mon, 00 Jan 2024 00:00:00 GMT", "Mon, 01 Jan 0000 00:00:00 GMT", "Mon, 01 Jan 2024 24:00:00 GMT",
		"Mon, 01 Jan 2024 00:60:00 GMT", "Mon, 01 Jan 2024 00:00:60 GMT", "Xyz, 01 Jan 2024 00:00:00 GMT",
		"Mon, 01 Jxn 2024 00:00:00 GMT", "Mon, 01 Jan 2024 00:00:00 gmt", "Mon, 1 Jan 2024 00:00:00 GMT",
		"Mon, 01 Jan 2024 0:00:00 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
		"Mon, 01 Jan 2024 00:00:0x GMT", "Mon, +1 Jan 2024 00:00:00 GMT", "Mon,01 Jan 2024 00:00:00 GMT ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, wantErr := time.Parse(timeFormat, s)
		if got, ok := parseFixdate(s); ok && (wantErr != nil || !got.Equal(want) || got.Location() != want.Location()) {
			t.Fatalf("parseFixdate(%q) = %v, time.Parse gives %v, %v", s, got, want, wantErr)
		}
		got, err := ParseHTTPTime(s)
		if wantErr == nil && (err != nil || !got.Equal(want)) {
			t.Fatalf("ParseHTTPTime(%q) = %v, %v; want %v", s, got, err, want)
		}
		if wantErr != nil {
			other, otherErr := time.Parse(time.RFC850, s)
			if otherErr != nil {
				other, otherErr = time.Parse(time.ANSIC, s)
			}
			if (err == nil) != (otherErr == nil) || err == nil && !got.Equal(other) {
				t.Fatalf("ParseHTTPTime(%q) = %v, %v; the other layouts give %v, %v", s, got, err, other, otherErr)
			}
		}
	})
}

// TestParseFixdateTakesTheSDKsForm: the form every SDK sends is read by the
// short path (so the fuzz target above compares something), and the
// dates it must refuse are refused.
func TestParseFixdateTakesTheSDKsForm(t *testing.T) {
	if got, ok := parseFixdate("Sun, 06 Nov 1994 08:49:37 GMT"); !ok || !got.Equal(time.Date(1994, 11, 6, 8, 49, 37, 0, time.UTC)) {
		t.Fatalf("got %v, %v", got, ok)
	}
	for _, s := range []string{"Mon, 31 Apr 2024 00:00:00 GMT", "Mon, 29 Feb 2023 00:00:00 GMT", "Mon, 01 Jan 2024 24:00:00 GMT", "Mon, 01 Jan 2024 00:00:00 UTC"} {
		if _, ok := parseFixdate(s); ok {
			t.Errorf("parseFixdate(%q) took it", s)
		}
		if _, err := ParseHTTPTime(s); err == nil {
			t.Errorf("ParseHTTPTime(%q) took it", s)
		}
	}
}
