package tableerr

// Code is a Table service error code such as "EntityAlreadyExists".
type Code string

// The Table service's error codes (its status table), plus
// MissingRequiredHeader (F-DELETE-IF-MATCH).
const (
	TableAlreadyExists                      Code = "TableAlreadyExists"
	TableNotFound                           Code = "TableNotFound"
	TableBeingDeleted                       Code = "TableBeingDeleted"
	ResourceNotFound                        Code = "ResourceNotFound"
	EntityNotFound                          Code = "EntityNotFound"
	EntityAlreadyExists                     Code = "EntityAlreadyExists"
	UpdateConditionNotSatisfied             Code = "UpdateConditionNotSatisfied"
	PropertiesNeedValue                     Code = "PropertiesNeedValue"
	InvalidInput                            Code = "InvalidInput"
	OutOfRangeInput                         Code = "OutOfRangeInput"
	InvalidResourceName                     Code = "InvalidResourceName"
	PropertyNameInvalid                     Code = "PropertyNameInvalid"
	PropertyNameTooLong                     Code = "PropertyNameTooLong"
	DuplicatePropertiesSpecified            Code = "DuplicatePropertiesSpecified"
	TooManyProperties                       Code = "TooManyProperties"
	PropertyValueTooLarge                   Code = "PropertyValueTooLarge"
	KeyValueTooLarge                        Code = "KeyValueTooLarge"
	EntityTooLarge                          Code = "EntityTooLarge"
	RequestBodyTooLarge                     Code = "RequestBodyTooLarge"
	InvalidValueType                        Code = "InvalidValueType"
	InvalidDuplicateRow                     Code = "InvalidDuplicateRow"
	CommandsInBatchActOnDifferentPartitions Code = "CommandsInBatchActOnDifferentPartitions"
	XMethodNotUsingPost                     Code = "XMethodNotUsingPost"
	XMethodIncorrectValue                   Code = "XMethodIncorrectValue"
	XMethodIncorrectCount                   Code = "XMethodIncorrectCount"
	JSONFormatNotSupported                  Code = "JsonFormatNotSupported"
	AtomFormatNotSupported                  Code = "AtomFormatNotSupported"
	JSONVerboseFormatNotSupported           Code = "JsonVerboseFormatNotSupported"
	MediaTypeNotSupported                   Code = "MediaTypeNotSupported"
	MethodNotAllowed                        Code = "MethodNotAllowed"
	NotImplemented                          Code = "NotImplemented"
	InvalidHeaderValue                      Code = "InvalidHeaderValue"
	InvalidQueryParameterValue              Code = "InvalidQueryParameterValue"
	MissingRequiredHeader                   Code = "MissingRequiredHeader"
	AuthenticationFailed                    Code = "AuthenticationFailed"
	AuthorizationFailure                    Code = "AuthorizationFailure"
	AuthorizationPermissionMismatch         Code = "AuthorizationPermissionMismatch"
	AuthorizationResourceTypeMismatch       Code = "AuthorizationResourceTypeMismatch"
	AuthorizationServiceMismatch            Code = "AuthorizationServiceMismatch"
	AuthorizationProtocolMismatch           Code = "AuthorizationProtocolMismatch"
	AuthorizationSourceIPMismatch           Code = "AuthorizationSourceIPMismatch"
	InvalidXMLDocument                      Code = "InvalidXmlDocument"
	CorsPreflightFailure                    Code = "CorsPreflightFailure"
	InternalError                           Code = "InternalError"
	OperationTimedOut                       Code = "OperationTimedOut"
	ServerBusy                              Code = "ServerBusy"
)

// entry is a code's HTTP status and default message. (Statuses are plain
// numbers: only rest imports net/http.)
type entry struct {
	status  int
	message string
}

// catalogue returns each code's status and the live service's message text
// (from the service's own status table and the live recordings).
// A function, not a package variable: nothing can change it.
func catalogue() map[Code]entry {
	return map[Code]entry{
		TableAlreadyExists:          {409, "The table specified already exists."},
		TableNotFound:               {404, "The table specified does not exist."},
		TableBeingDeleted:           {409, "The specified table is being deleted. Try operation later."},
		ResourceNotFound:            {404, "The specified resource does not exist."},
		EntityNotFound:              {404, "The specified entity does not exist."},
		EntityAlreadyExists:         {409, "The specified entity already exists."},
		UpdateConditionNotSatisfied: {412, "The update condition specified in the request was not satisfied."},
		PropertiesNeedValue:         {400, "The values are not specified for all properties in the entity."},
		InvalidInput:                {400, "One of the request inputs is not valid."},
		OutOfRangeInput:             {400, "One of the request inputs is out of range."},
		// The typo "specifed" is the live service's (recorded 2017 and 2026).
		InvalidResourceName:          {400, "The specifed resource name contains invalid characters."},
		PropertyNameInvalid:          {400, "The property name is invalid."},
		PropertyNameTooLong:          {400, "The property name exceeds the maximum allowed length (255)."},
		DuplicatePropertiesSpecified: {400, "A property is specified more than one time."},
		TooManyProperties:            {400, "The entity contains more properties than allowed. Each entity can include up to 252 properties to store data. Each entity also has 3 system properties."},
		PropertyValueTooLarge:        {400, "The property value exceeds the maximum allowed size (64KB). If the property value is a string, it is UTF-16 encoded and the maximum number of characters should be 32K or less."},
		// Only the start of this text is known; the size is the one our
		// key rule (F-KEY-SIZE) uses. tableplay reports long keys as PropertyValueTooLarge.
		KeyValueTooLarge:                        {400, "The 'PartitionKey' property exceeds the maximum allowed key size (1KB)."},
		EntityTooLarge:                          {400, "The entity is larger than the maximum allowed size (1MB)."},
		RequestBodyTooLarge:                     {413, "The request body is too large and exceeds the maximum permissible limit."},
		InvalidValueType:                        {400, "The value specified is invalid."},
		InvalidDuplicateRow:                     {400, "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request."},
		CommandsInBatchActOnDifferentPartitions: {400, "All commands in a batch must operate on same entity group."},
		XMethodNotUsingPost:                     {400, "The request uses X-HTTP-Method with an HTTP verb other than POST."},
		XMethodIncorrectValue:                   {400, "The specified X-HTTP-Method is invalid."},
		XMethodIncorrectCount:                   {400, "More than one X-HTTP-Method is specified."},
		JSONFormatNotSupported:                  {415, "JSON format is not supported."},
		AtomFormatNotSupported:                  {415, "Atom format is not supported."},
		JSONVerboseFormatNotSupported:           {415, "JSON Verbose format is not supported."},
		// No recorded text for MediaTypeNotSupported; this is the closest
		// documented storage message.
		MediaTypeNotSupported: {415, "The specified media type is not supported."},
		MethodNotAllowed:      {405, "The requested method is not allowed on the specified resource."},
		NotImplemented:        {501, "The requested operation is not implemented on the specified resource."},
		InvalidHeaderValue:    {400, "The value for one of the HTTP headers is not in the correct format."},
		// No recorded text; this is the common storage service message.
		InvalidQueryParameterValue: {400, "Value for one of the query parameters specified in the request URI is invalid."},
		// F-DELETE-IF-MATCH's text.
		MissingRequiredHeader: {400, "An HTTP header that's mandatory for this request is not specified."},
		AuthenticationFailed:  {403, "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature."},
		// No recorded text for the authorization codes; these are the
		// storage services' documented messages.
		AuthorizationFailure:              {403, "This request is not authorized to perform this operation."},
		AuthorizationPermissionMismatch:   {403, "This request is not authorized to perform this operation using this permission."},
		AuthorizationResourceTypeMismatch: {403, "This request is not authorized to perform this operation using this resource type."},
		AuthorizationServiceMismatch:      {403, "This request is not authorized to perform this operation using this service."},
		AuthorizationProtocolMismatch:     {403, "This request is not authorized to perform this operation using this protocol."},
		AuthorizationSourceIPMismatch:     {403, "This request is not authorized to perform this operation using this source IP."},
		// The storage services' messages for XML bodies and CORS.
		InvalidXMLDocument:   {400, "XML specified is not syntactically valid."},
		CorsPreflightFailure: {403, "CORS not enabled or no matching rule found for this request."},
		InternalError:        {500, "The server encountered an internal error. Please retry the request."},
		OperationTimedOut:    {500, "Operation could not be completed within the specified time."},
		ServerBusy:           {503, "The server is busy."},
	}
}

// Codes lists every code of the catalogue, for tests and documentation.
func Codes() []Code {
	cat := catalogue()
	out := make([]Code, 0, len(cat))
	for c := range cat {
		out = append(out, c)
	}
	return out
}

// Status returns the code's HTTP status (500 for a code not in the catalogue).
func (c Code) Status() int {
	if e, ok := catalogue()[c]; ok {
		return e.status
	}
	return 500
}

// Message returns the code's default message text.
func (c Code) Message() string { return catalogue()[c].message }
