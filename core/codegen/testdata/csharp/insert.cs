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
// The example's table, created first (kept when it exists).
client.CreateIfNotExists();

try
{
    var entity = new TableEntity("p9", "new")
    {
        ["Name"] = "Zoë \"quoted\" 'single' \\ back",
        ["Active"] = true,
        ["Count"] = -42,
        ["Whole"] = 20.0,
        ["Ratio"] = 0.1,
        ["Big"] = 9007199254740993L,
        ["When"] = new DateTimeOffset(2026, 11, 22, 12, 34, 56, TimeSpan.Zero).AddTicks(1234567),
        ["Id"] = Guid.Parse("c9da6455-213d-42c9-9a79-3e9149a57833"),
        ["Blob"] = new byte[] { 0x00, 0x01, 0x02, 0xff },
    };
    var response = client.AddEntity(entity);
    Console.WriteLine($"etag {response.Headers.ETag}");
}
catch (RequestFailedException e)
{
    Console.Error.WriteLine($"{e.Status} {e.ErrorCode} {e.Message}");
    return 1;
}
return 0;
