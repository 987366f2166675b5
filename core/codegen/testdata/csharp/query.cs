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
    // Each page ends where the service's continuation tokens say; AsPages follows them.
    var n = 0;
    var pages = client.Query<TableEntity>(filter: "PartitionKey eq 'p1' and RowKey ge 'r2'", maxPerPage: 2, select: new[] { "PartitionKey", "RowKey", "N", "Label" }).AsPages();
    foreach (var page in pages)
    {
        Console.WriteLine($"page {++n}: {page.Values.Count} entities");
        foreach (var entity in page.Values)
        {
            PrintEntity(entity);
        }
    }
}
catch (RequestFailedException e)
{
    Console.Error.WriteLine($"{e.Status} {e.ErrorCode} {e.Message}");
    return 1;
}
return 0;

// Prints an entity as the SDK decoded it.
static void PrintEntity(TableEntity entity)
{
    Console.WriteLine($"entity {entity.PartitionKey} {entity.RowKey}");
    foreach (var (name, value) in entity)
    {
        if (name is not ("PartitionKey" or "RowKey" or "Timestamp" or "odata.etag"))
        {
            Console.WriteLine($"  {name} = {value} ({value?.GetType().Name})");
        }
    }
}
