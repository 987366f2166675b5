package entity

// Where each rule is written down.
const (
	dataModelURL = "https://learn.microsoft.com/en-us/rest/api/storageservices/understanding-the-table-service-data-model"
	payloadURL   = "https://learn.microsoft.com/en-us/rest/api/storageservices/payload-format-for-table-service-operations"
	sizeBlogURL  = "https://learn.microsoft.com/en-us/archive/blogs/avkashchauhan/how-the-size-of-an-entity-is-caclulated-in-windows-azure-table-storage"

	secTableNames = "Understanding the Table service data model › Table names"
	secPropNames  = "Understanding the Table service data model › Property names"
	secKeyChars   = "Understanding the Table service data model › Characters disallowed in key fields"
	secKeys       = "Understanding the Table service data model › PartitionKey and RowKey properties"
	secPropTypes  = "Understanding the Table service data model › Property types"
	secProperties = "Understanding the Table service data model › Properties"
	secPayload    = "Payload format for Table service operations › Property types in a JSON feed"
	secEntitySize = "How the size of an entity is calculated (Microsoft, 2011)"
)
