// A test suite imports UnderstudyTesting and gets what a test needs of the engine: the APIs (`MockAPI`), the
// configuration (`MockConfiguration`, `MockClock`, `FaultRule`), the journal, and `MockBehaviour` for a test double
// of one's own. The state, auth and routing plumbing is `package`: only this package's targets see it. It links no
// server: `MockServer` (a real socket) is in UnderstudyMockServer.
@_exported import UnderstudyMock
