// Package sdktest makes the official Go SDK's clients (aztables) the tests
// drive a server with, one way: retries off, so that each call is one
// request and a test sees every answer as it was sent.
package sdktest

import (
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// Options are client options with retries off, sending through tr (the
// SDK's own transport when tr is nil).
func Options(tr policy.Transporter) *aztables.ClientOptions {
	o := &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}}
	if tr != nil {
		o.Transport = tr
	}
	return o
}

// Service is a service client for the account at accountURL (the
// endpoint with the account's path segment), signed with Shared Key.
func Service(t testing.TB, accountURL, account, key string, tr policy.Transporter) *aztables.ServiceClient {
	t.Helper()
	cred, err := aztables.NewSharedKeyCredential(account, key)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := aztables.NewServiceClientWithSharedKey(accountURL, cred, Options(tr))
	if err != nil {
		t.Fatal(err)
	}
	return svc
}
