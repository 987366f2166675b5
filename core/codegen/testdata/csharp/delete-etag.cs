// Runs against the local emulator: `tableplay serve` (or Azurite) on 127.0.0.1:10002.
// dotnet add package Azure.Data.Tables
using System;
using Azure;
using Azure.Data.Tables;

// The emulator's well-known account: replace with your own connection string.
const string connectionString =
    "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;";
var service = new TableServiceClient(connectionString);
var client = service.GetTableClient("Demo");

try
{
    // Only if the entity still has this ETag (else 412 UpdateConditionNotSatisfied).
    var etag = new ETag("W/\"datetime'2026-11-22T12%3A00%3A00Z'\"");
    client.DeleteEntity("p1", "r1", etag);
    Console.WriteLine("deleted");
}
catch (RequestFailedException e)
{
    Console.Error.WriteLine($"{e.Status} {e.ErrorCode} {e.Message}");
    return 1;
}
return 0;
