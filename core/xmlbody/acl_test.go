package xmlbody

import "testing"

// TestACLEmptyPolicyIsNoPolicy: an <AccessPolicy/> without fields is kept
// as an identifier without a policy, the same as a snapshot restores it;
// one field is enough to make a policy.
func TestACLEmptyPolicyIsNoPolicy(t *testing.T) {
	body := `<?xml version="1.0" encoding="UTF-8"?><SignedIdentifiers>` +
		`<SignedIdentifier><Id>empty</Id><AccessPolicy/></SignedIdentifier>` +
		`<SignedIdentifier><Id>blank</Id><AccessPolicy><Start> </Start></AccessPolicy></SignedIdentifier>` +
		`<SignedIdentifier><Id>partial</Id><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier>` +
		`<SignedIdentifier><Id>bare</Id></SignedIdentifier></SignedIdentifiers>`
	ids, err := ParseACL([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"empty": false, "blank": false, "partial": true, "bare": false}
	if len(ids) != len(want) {
		t.Fatalf("%d identifiers, want %d", len(ids), len(want))
	}
	for _, id := range ids {
		if id.HasPolicy != want[id.ID] {
			t.Errorf("%s: HasPolicy %v, want %v", id.ID, id.HasPolicy, want[id.ID])
		}
	}
}
