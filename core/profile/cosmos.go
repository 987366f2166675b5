package profile

// Cosmos is Azure Cosmos DB for Table, as the live endpoint answered the
// SDKs' recorded tests and as its documentation describes it; each field
// names its docs/fidelity.md entry.
func Cosmos() Profile {
	return Profile{
		Name:                    "cosmos",
		Title:                   "Azure Cosmos DB for Table",
		CaseSensitiveTableNames: true,                                               // F-COSMOS-TABLE-CASE
		Order:                   CreationOrder,                                      // F-COSMOS-ORDER
		MaxKeyBytes:             255,                                                // F-COSMOS-KEY-SIZE
		MaxBatchBytes:           2 << 20,                                            // F-COSMOS-BATCH-SIZE
		Lacks:                   TableACL | ServiceProperties | ServiceStats | CORS, // F-COSMOS-NO-ACL, F-COSMOS-NO-SERVICE
		Absent:                  Absent{Status: 400, Code: "NotImplemented"},
		Errors:                  CosmosErrors, // F-COSMOS-ERRORS
		ETags:                   CosmosETags,  // F-COSMOS-ETAG
	}
}
