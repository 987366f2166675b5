package profile

// Cosmos is Azure Cosmos DB for Table, as the live endpoint answered the
// SDKs' recorded tests and as its documentation describes it; each field
// names its docs/fidelity.md entry.
func Cosmos() Profile {
	return Profile{
		Name:                    "cosmos",
		Title:                   "Azure Cosmos DB for Table",
		CaseSensitiveTableNames: true,                                               // F-COSMOS-TABLE-CASE
		TableNames:              CosmosTableNames,                                   // F-COSMOS-TABLE-NAMES
		Order:                   WriteOrder,                                         // F-COSMOS-ORDER
		MaxRowKeyBytes:          255,                                                // F-COSMOS-ROWKEY-SIZE
		Reserved:                []string{"ID", "rid", "ResourceId"},                // F-COSMOS-RESERVED-NAMES
		KeptOnce:                []string{"etag"},                                   // F-COSMOS-ETAG-PROPERTY
		NonEmptyKeys:            true,                                               // F-COSMOS-EMPTY-KEYS
		MaxBatchBytes:           2 << 20,                                            // F-COSMOS-BATCH-SIZE
		Lacks:                   TableACL | ServiceProperties | ServiceStats | CORS, // F-COSMOS-NO-ACL, F-COSMOS-NO-SERVICE, F-COSMOS-NO-CORS
		Absent:                  Absent{Status: 501, Code: "NotImplemented"},
		Errors:                  CosmosErrors,  // F-COSMOS-ERRORS
		Bodies:                  CosmosBodies,  // F-COSMOS-BODIES
		Headers:                 CosmosHeaders, // F-COSMOS-HEADERS
		Tokens:                  CosmosTokens,  // F-COSMOS-TOKENS
	}
}
