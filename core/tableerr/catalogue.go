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
	InvalidAuthenticationInfo               Code = "InvalidAuthenticationInfo"
	AuthorizationFailure                    Code = "AuthorizationFailure"
	AuthorizationPermissionMismatch         Code = "AuthorizationPermissionMismatch"
	AuthorizationResourceTypeMismatch       Code = "AuthorizationResourceTypeMismatch"
	AuthorizationServiceMismatch            Code = "AuthorizationServiceMismatch"
	AuthorizationProtocolMismatch           Code = "AuthorizationProtocolMismatch"
	AuthorizationSourceIPMismatch           Code = "AuthorizationSourceIPMismatch"
	InvalidXMLDocument                      Code = "InvalidXmlDocument"
	InvalidXMLNodeValue                     Code = "InvalidXmlNodeValue"
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

// lookup returns a code's status and the live service's message text (from
// the service's own status table and the live recordings). A switch, not a
// map: nothing can change it and nothing is built per call.
func lookup(c Code) (entry, bool) {
	switch c {
	case TableAlreadyExists:
		return entry{409, "The table specified already exists."}, true
	case TableNotFound:
		return entry{404, "The table specified does not exist."}, true
	case TableBeingDeleted:
		return entry{409, "The specified table is being deleted. Try operation later."}, true
	case ResourceNotFound:
		return entry{404, "The specified resource does not exist."}, true
	case EntityNotFound:
		return entry{404, "The specified entity does not exist."}, true
	case EntityAlreadyExists:
		return entry{409, "The specified entity already exists."}, true
	case UpdateConditionNotSatisfied:
		return entry{412, "The update condition specified in the request was not satisfied."}, true
	case PropertiesNeedValue:
		return entry{400, "The values are not specified for all properties in the entity."}, true
	case InvalidInput:
		return entry{400, "One of the request inputs is not valid."}, true
	case OutOfRangeInput:
		return entry{400, "One of the request inputs is out of range."}, true
	// The typo "specifed" is the live service's (recorded 2017 and 2026).
	case InvalidResourceName:
		return entry{400, "The specifed resource name contains invalid characters."}, true
	case PropertyNameInvalid:
		return entry{400, "The property name is invalid."}, true
	case PropertyNameTooLong:
		return entry{400, "The property name exceeds the maximum allowed length (255)."}, true
	case DuplicatePropertiesSpecified:
		return entry{400, "A property is specified more than one time."}, true
	case TooManyProperties:
		return entry{400, "The entity contains more properties than allowed. Each entity can include up to 252 properties to store data. Each entity also has 3 system properties."}, true
	case PropertyValueTooLarge:
		return entry{400, "The property value exceeds the maximum allowed size (64KB). If the property value is a string, it is UTF-16 encoded and the maximum number of characters should be 32K or less."}, true
	// Only the start of this text is known; the size is the one our
	// key rule (F-KEY-SIZE) uses. tableplay reports long keys as PropertyValueTooLarge.
	case KeyValueTooLarge:
		return entry{400, "The 'PartitionKey' property exceeds the maximum allowed key size (1KB)."}, true
	case EntityTooLarge:
		return entry{400, "The entity is larger than the maximum allowed size (1MB)."}, true
	case RequestBodyTooLarge:
		return entry{413, "The request body is too large and exceeds the maximum permissible limit."}, true
	case InvalidValueType:
		return entry{400, "The value specified is invalid."}, true
	case InvalidDuplicateRow:
		return entry{400, "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request."}, true
	case CommandsInBatchActOnDifferentPartitions:
		return entry{400, "All commands in a batch must operate on same entity group."}, true
	case XMethodNotUsingPost:
		return entry{400, "The request uses X-HTTP-Method with an HTTP verb other than POST."}, true
	case XMethodIncorrectValue:
		return entry{400, "The specified X-HTTP-Method is invalid."}, true
	case XMethodIncorrectCount:
		return entry{400, "More than one X-HTTP-Method is specified."}, true
	case JSONFormatNotSupported:
		return entry{415, "JSON format is not supported."}, true
	case AtomFormatNotSupported:
		return entry{415, "Atom format is not supported."}, true
	case JSONVerboseFormatNotSupported:
		return entry{415, "JSON Verbose format is not supported."}, true
	// No recorded text for MediaTypeNotSupported; this is the closest
	// documented storage message.
	case MediaTypeNotSupported:
		return entry{415, "The specified media type is not supported."}, true
	case MethodNotAllowed:
		return entry{405, "The requested method is not allowed on the specified resource."}, true
	case NotImplemented:
		return entry{501, "The requested operation is not implemented on the specified resource."}, true
	case InvalidHeaderValue:
		return entry{400, "The value for one of the HTTP headers is not in the correct format."}, true
	// No recorded text; this is the common storage service message.
	case InvalidQueryParameterValue:
		return entry{400, "Value for one of the query parameters specified in the request URI is invalid."}, true
	// F-DELETE-IF-MATCH's text.
	case MissingRequiredHeader:
		return entry{400, "An HTTP header that's mandatory for this request is not specified."}, true
	case AuthenticationFailed:
		return entry{403, "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature."}, true
	// A bearer token refused (docs/server.md, bearer tokens): the storage
	// services' text, which points at the WWW-Authenticate challenge.
	case InvalidAuthenticationInfo:
		return entry{401, "Server failed to authenticate the request. Please refer to the information in the www-authenticate header."}, true
	// No recorded text for the authorization codes; these are the
	// storage services' documented messages.
	case AuthorizationFailure:
		return entry{403, "This request is not authorized to perform this operation."}, true
	case AuthorizationPermissionMismatch:
		return entry{403, "This request is not authorized to perform this operation using this permission."}, true
	case AuthorizationResourceTypeMismatch:
		return entry{403, "This request is not authorized to perform this operation using this resource type."}, true
	case AuthorizationServiceMismatch:
		return entry{403, "This request is not authorized to perform this operation using this service."}, true
	case AuthorizationProtocolMismatch:
		return entry{403, "This request is not authorized to perform this operation using this protocol."}, true
	case AuthorizationSourceIPMismatch:
		return entry{403, "This request is not authorized to perform this operation using this source IP."}, true
	// The storage services' messages for XML bodies and CORS.
	case InvalidXMLDocument:
		return entry{400, "XML specified is not syntactically valid."}, true
	case InvalidXMLNodeValue:
		return entry{400, "The value for one of the XML nodes is not in the correct format."}, true
	case CorsPreflightFailure:
		return entry{403, "CORS not enabled or no matching rule found for this request."}, true
	case InternalError:
		return entry{500, "The server encountered an internal error. Please retry the request."}, true
	case OperationTimedOut:
		return entry{500, "Operation could not be completed within the specified time."}, true
	case ServerBusy:
		return entry{503, "The server is busy."}, true
	}
	return entry{}, false
}

// Codes lists every code of the catalogue, for tests and documentation.
func Codes() []Code {
	return []Code{
		TableAlreadyExists,
		TableNotFound,
		TableBeingDeleted,
		ResourceNotFound,
		EntityNotFound,
		EntityAlreadyExists,
		UpdateConditionNotSatisfied,
		PropertiesNeedValue,
		InvalidInput,
		OutOfRangeInput,
		InvalidResourceName,
		PropertyNameInvalid,
		PropertyNameTooLong,
		DuplicatePropertiesSpecified,
		TooManyProperties,
		PropertyValueTooLarge,
		KeyValueTooLarge,
		EntityTooLarge,
		RequestBodyTooLarge,
		InvalidValueType,
		InvalidDuplicateRow,
		CommandsInBatchActOnDifferentPartitions,
		XMethodNotUsingPost,
		XMethodIncorrectValue,
		XMethodIncorrectCount,
		JSONFormatNotSupported,
		AtomFormatNotSupported,
		JSONVerboseFormatNotSupported,
		MediaTypeNotSupported,
		MethodNotAllowed,
		NotImplemented,
		InvalidHeaderValue,
		InvalidQueryParameterValue,
		MissingRequiredHeader,
		AuthenticationFailed,
		InvalidAuthenticationInfo,
		AuthorizationFailure,
		AuthorizationPermissionMismatch,
		AuthorizationResourceTypeMismatch,
		AuthorizationServiceMismatch,
		AuthorizationProtocolMismatch,
		AuthorizationSourceIPMismatch,
		InvalidXMLDocument,
		InvalidXMLNodeValue,
		CorsPreflightFailure,
		InternalError,
		OperationTimedOut,
		ServerBusy,
	}
}

// Status returns the code's HTTP status (500 for a code not in the catalogue).
func (c Code) Status() int {
	if e, ok := lookup(c); ok {
		return e.status
	}
	return 500
}

// Message returns the code's default message text.
func (c Code) Message() string {
	e, _ := lookup(c)
	return e.message
}
