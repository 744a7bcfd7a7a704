// A test suite imports only UnderstudyTesting and gets the engine, the five APIs' mocks and the configuration types.
// It links no server: `MockServer` (a real socket) is in UnderstudyMockServer.
@_exported import UnderstudyMock
