/* GetPjrtApi: the PJRT C API table (version 0.112, third_party/pjrt/pjrt_c_api.h) and the
 * plugin's attributes. Every entry is one of three kinds (docs/ARCHITECTURE.md, "PJRT"):
 * - real: implemented in the files of src/pjrt/;
 * - UNIMPLEMENTED: returns an UNIMPLEMENTED error naming the function, where JAX and EXLA
 *   tolerate one (STUBS below);
 * - NULL: left out on purpose, where the framework checks for NULL and a stub error would
 *   be fatal or change its behaviour (Event_Create/Set, Device_GetAttributes,
 *   Device_ClearMemoryStats, Client_Load, LoadedExecutable_AddressableDeviceLogicalIds,
 *   Buffer_Bitcast, TopologyDescription_MakeCanonicalShapeForMemorySpace and
 *   TopologyDescription_GetMemorySpaceKindIds).
 * The table and the attributes are constant: thread-safe. */
#include "pjrt/pjrt.h"

#define REAL(X)                                                                                                   \
  X(Error_Destroy) X(Error_Message) X(Error_GetCode) X(Error_ForEachPayload) X(Plugin_Initialize)                 \
  X(Plugin_Attributes) X(Event_Destroy) X(Event_IsReady) X(Event_Error) X(Event_Await) X(Event_OnReady)           \
  X(Client_Create) X(Client_Destroy) X(Client_PlatformName) X(Client_ProcessIndex) X(Client_PlatformVersion)      \
  X(Client_Devices) X(Client_AddressableDevices) X(Client_LookupDevice) X(Client_LookupAddressableDevice)         \
  X(Client_AddressableMemories) X(Client_Compile) X(Client_DefaultDeviceAssignment)                               \
  X(Client_BufferFromHostBuffer) X(Client_CreateUninitializedBuffer) X(DeviceDescription_Id)                      \
  X(DeviceDescription_ProcessIndex) X(DeviceDescription_Attributes) X(DeviceDescription_Kind)                     \
  X(DeviceDescription_DebugString) X(DeviceDescription_ToString) X(Device_GetDescription) X(Device_IsAddressable) \
  X(Device_LocalHardwareId) X(Device_AddressableMemories) X(Device_DefaultMemory)                                 \
  X(Device_CreateAsyncTrackingEvent) X(AsyncTrackingEvent_Destroy) X(Memory_Id) X(Memory_Kind) X(Memory_Kind_Id)  \
  X(Memory_DebugString) X(Memory_ToString) X(Memory_AddressableByDevices) X(Executable_Destroy)                   \
  X(Executable_Name) X(Executable_NumReplicas) X(Executable_NumPartitions) X(Executable_NumOutputs)                \
  X(Executable_SizeOfGeneratedCodeInBytes) X(LoadedExecutable_Destroy) X(LoadedExecutable_GetExecutable)          \
  X(LoadedExecutable_AddressableDevices) X(LoadedExecutable_Delete) X(LoadedExecutable_IsDeleted)                 \
  X(LoadedExecutable_GetDeviceAssignment) X(LoadedExecutable_Execute) X(Buffer_Destroy) X(Buffer_ElementType)     \
  X(Buffer_Dimensions) X(Buffer_UnpaddedDimensions) X(Buffer_DynamicDimensionIndices)                             \
  X(Buffer_OnDeviceSizeInBytes) X(Buffer_Device) X(Buffer_Memory) X(Buffer_Delete) X(Buffer_IsDeleted)            \
  X(Buffer_IsOnCpu) X(Buffer_ReadyEvent) X(Buffer_ToHostBuffer) X(Buffer_CopyToDevice) X(Buffer_CopyToMemory)    \
  X(Buffer_UnsafePointer) X(Executable_Fingerprint) X(Client_UpdateGlobalProcessInfo)

#define STUBS(X)                                                                                                   \
  X(Client_TopologyDescription) X(Client_CreateViewOfDeviceBuffer) X(Client_CreateErrorBuffer)                     \
  X(Client_CreateAliasBuffer) X(Client_FulfillAliasBuffer) X(Client_DmaMap) X(Client_DmaUnmap)                     \
  X(Client_CreateBuffersForAsyncHostToDevice) X(Device_MemoryStats)                                               \
  X(Device_PoisonExecution) X(Executable_GetCostAnalysis) X(Executable_OutputMemoryKinds)                          \
  X(Executable_OptimizedProgram) X(Executable_Serialize) X(Executable_DeserializeAndLoad)                          \
  X(Executable_OutputElementTypes) X(Executable_OutputDimensions)                                                   \
  X(Executable_GetCompiledMemoryStats) X(Executable_GetCompileOptions) X(Executable_ParameterMemoryKinds)          \
  X(LoadedExecutable_Fingerprint) X(Buffer_GetMemoryLayout)                                                         \
  X(Buffer_IncreaseExternalReferenceCount) X(Buffer_DecreaseExternalReferenceCount)                                \
  X(Buffer_OpaqueDeviceMemoryDataPointer) X(Buffer_CopyRawToHost) X(Buffer_CopyRawToHostFuture)                    \
  X(Buffer_DonateWithControlDependency) X(CopyToDeviceStream_Destroy) X(CopyToDeviceStream_AddChunk)               \
  X(CopyToDeviceStream_TotalBytes) X(CopyToDeviceStream_GranuleSize) X(CopyToDeviceStream_CurrentBytes)            \
  X(TopologyDescription_Create) X(TopologyDescription_Destroy) X(TopologyDescription_PlatformName)                 \
  X(TopologyDescription_PlatformVersion) X(TopologyDescription_GetDeviceDescriptions)                              \
  X(TopologyDescription_Serialize) X(TopologyDescription_Attributes) X(TopologyDescription_Fingerprint)            \
  X(TopologyDescription_Deserialize) X(Compile) X(ExecuteContext_Create) X(ExecuteContext_Destroy)                 \
  X(AsyncHostToDeviceTransferManager_Destroy) X(AsyncHostToDeviceTransferManager_TransferData)                     \
  X(AsyncHostToDeviceTransferManager_RetrieveBuffer) X(AsyncHostToDeviceTransferManager_Device)                    \
  X(AsyncHostToDeviceTransferManager_BufferCount) X(AsyncHostToDeviceTransferManager_BufferSize)                   \
  X(AsyncHostToDeviceTransferManager_SetBufferError) X(AsyncHostToDeviceTransferManager_AddMetadata)               \
  X(AsyncHostToDeviceTransferManager_TransferLiteral)

#define DEFINE_STUB(name)                                  \
  static PJRT_Error *stub_##name(PJRT_##name##_Args *args) { \
    (void)args;                                            \
    return kiln_pjrt_unimplemented("PJRT_" #name);         \
  }
STUBS(DEFINE_STUB)
#undef DEFINE_STUB

/* ------------------------------------------------------------------ plugin */

/* Initialisation happens in Client_Create (EXLA never calls this): idempotent, optional. */
PJRT_Error *kiln_pjrt_Plugin_Initialize(PJRT_Plugin_Initialize_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, extension_start);
  return NULL;
}

/* The StableHLO version Kiln asks frameworks to serialize programs at: JAX 0.10.2 (1.16.3)
 * and EXLA 0.13 (1.13.7) both then send VHLO 1.13.0. */
static const int64_t stablehlo_version[3] = {1, 13, 0};

#define NAME(s) .name = s, .name_size = sizeof s - 1
static const PJRT_NamedValue attributes[] = {
  {.struct_size = PJRT_NamedValue_STRUCT_SIZE, NAME("xla_version"), .type = PJRT_NamedValue_kInt64,
   .int64_value = 2, .value_size = 1},
  {.struct_size = PJRT_NamedValue_STRUCT_SIZE, NAME("stablehlo_current_version"), .type = PJRT_NamedValue_kInt64List,
   .int64_array_value = stablehlo_version, .value_size = 3},
  {.struct_size = PJRT_NamedValue_STRUCT_SIZE, NAME("stablehlo_minimum_version"), .type = PJRT_NamedValue_kInt64List,
   .int64_array_value = stablehlo_version, .value_size = 3},
};
#undef NAME

PJRT_Error *kiln_pjrt_Plugin_Attributes(PJRT_Plugin_Attributes_Args *args) {
  KILN_PJRT_CHECK_ARGS(args, num_attributes);
  args->attributes = attributes;
  args->num_attributes = sizeof attributes / sizeof attributes[0];
  return NULL;
}

/* ------------------------------------------------------------------ the table */

#define ENTRY_REAL(name) .PJRT_##name = kiln_pjrt_##name,
#define ENTRY_STUB(name) .PJRT_##name = stub_##name,
static const PJRT_Api api = {
  .struct_size = PJRT_Api_STRUCT_SIZE,
  .extension_start = (PJRT_Extension_Base *)&kiln_pjrt_shardings_extension, /* its base comes first */
  .pjrt_api_version = {.struct_size = PJRT_Api_Version_STRUCT_SIZE,
                       .major_version = PJRT_API_MAJOR,
                       .minor_version = PJRT_API_MINOR},
  REAL(ENTRY_REAL) STUBS(ENTRY_STUB)
};

__attribute__((visibility("default"))) const PJRT_Api *GetPjrtApi(void);
const PJRT_Api *GetPjrtApi(void) { return &api; }
