// A test suite imports only UnderstudyTesting and gets `MockServer.start(.apinest)` and the configuration types.
@_exported import UnderstudyMock
