package tableerr

import (
	"net/http"
	"testing"
)

func TestCatalogueIsComplete(t *testing.T) {
	for _, c := range Codes() {
		if c.Message() == "" {
			t.Errorf("%s has no message", c)
		}
		if s := c.Status(); s < 400 || s > 599 {
			t.Errorf("%s has status %d", c, s)
		}
	}
	if len(Codes()) < 41 {
		t.Errorf("catalogue has %d codes", len(Codes()))
	}
}

func TestLiveStatusesAndMessages(t *testing.T) {
	// Pairs seen in the live recordings.
	tests := []struct {
		code   Code
		status int
		msg    string
	}{
		{TableAlreadyExists, http.StatusConflict, "The table specified already exists."},
		{EntityAlreadyExists, http.StatusConflict, "The specified entity already exists."},
		{ResourceNotFound, http.StatusNotFound, "The specified resource does not exist."},
		{TableNotFound, http.StatusNotFound, "The table specified does not exist."},
		{UpdateConditionNotSatisfied, http.StatusPreconditionFailed, "The update condition specified in the request was not satisfied."},
		{PropertiesNeedValue, http.StatusBadRequest, "The values are not specified for all properties in the entity."},
		{PropertyNameInvalid, http.StatusBadRequest, "The property name is invalid."},
		{InvalidResourceName, http.StatusBadRequest, "The specifed resource name contains invalid characters."},
		{InvalidInput, http.StatusBadRequest, "One of the request inputs is not valid."},
		{AuthenticationFailed, http.StatusForbidden, "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature."},
		{MissingRequiredHeader, http.StatusBadRequest, "An HTTP header that's mandatory for this request is not specified."},
		{RequestBodyTooLarge, http.StatusRequestEntityTooLarge, "The request body is too large and exceeds the maximum permissible limit."},
		{NotImplemented, http.StatusNotImplemented, "The requested operation is not implemented on the specified resource."},
	}
	for _, tt := range tests {
		e := New(tt.code)
		if e.Status != tt.status || e.Message != tt.msg || e.Code != tt.code {
			t.Errorf("New(%s) = %d %q", tt.code, e.Status, e.Message)
		}
	}
}

func TestPrefixed(t *testing.T) {
	e := New(EntityAlreadyExists)
	p := e.Prefixed(2)
	if p.Message != "2:The specified entity already exists." || e.Message != "The specified entity already exists." {
		t.Errorf("Prefixed: %q (original %q)", p.Message, e.Message)
	}
	if New(InvalidInput).Prefixed(100).Message != "100:One of the request inputs is not valid." {
		t.Error("Prefixed(100)")
	}
	if got := Code("Nope").Status(); got != http.StatusInternalServerError {
		t.Errorf("unknown code status %d", got)
	}
	if WithMessage(InvalidInput, "x").Error() != "InvalidInput: x" {
		t.Error("Error()")
	}
}
