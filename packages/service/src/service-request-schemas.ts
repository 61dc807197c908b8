import { activityRequestSchema, bindingKeySchema, createBindingInputSchema, targetInputSchema, updateBindingInputSchema } from './control/binding-input';
import { costQuerySchema, financeInputSchema, financeQuerySchema } from './costs/memory-cost-ledger';
import { costSummaryRequestSchema } from './costs/summarize-costs';
import { deliveryQuerySchema, metricsSchema, operationQuerySchema, rangeSchema } from './explorer/memory-explorer';
import {
  issueCommentCaptureInputSchema,
  issueDocumentCaptureInputSchema,
  manualCaptureInputSchema,
  postRunCaptureInputSchema,
  preRunHydrateInputSchema,
} from './hooks/hook-inputs';
import { jobListRequestSchema } from './runtime/memory-runtime';
import { refusedCallRequestSchema } from './runtime/refused-call';
import {
  serviceCaptureRequestSchema,
  serviceCorrectRequestSchema,
  serviceForgetRequestSchema,
  serviceGetRequestSchema,
  serviceListRequestSchema,
  serviceProfileRequestSchema,
  serviceProviderJobListRequestSchema,
  serviceQueryRequestSchema,
  serviceRecordWriteRequestSchema,
  serviceRefreshJobsRequestSchema,
  serviceRetryJobRequestSchema,
} from './runtime/runtime-requests';

/**
 * The zod schemas the service checks its requests with, one per method argument. Hosts that
 * put the service behind another transport (HTTP, say) describe their endpoints with these, so
 * what they document is exactly what the service accepts. The service validates every call
 * itself; a host need not parse with them first.
 */
export const serviceRequestSchemas = {
  runtime: {
    capture: serviceCaptureRequestSchema,
    upsertRecords: serviceRecordWriteRequestSchema,
    query: serviceQueryRequestSchema,
    list: serviceListRequestSchema,
    get: serviceGetRequestSchema,
    forget: serviceForgetRequestSchema,
    correct: serviceCorrectRequestSchema,
    profile: serviceProfileRequestSchema,
    listProviderExtractionJobs: serviceProviderJobListRequestSchema,
    retryExtractionJob: serviceRetryJobRequestSchema,
    refreshExtractionJobs: serviceRefreshJobsRequestSchema,
    listExtractionJobs: jobListRequestSchema,
    logRefusedCall: refusedCallRequestSchema,
  },
  hooks: {
    pre_run_hydrate: preRunHydrateInputSchema,
    post_run_capture: postRunCaptureInputSchema,
    issue_comment_capture: issueCommentCaptureInputSchema,
    issue_document_capture: issueDocumentCaptureInputSchema,
    manual_capture: manualCaptureInputSchema,
  },
  control: {
    bindingKey: bindingKeySchema,
    createBinding: createBindingInputSchema,
    updateBinding: updateBindingInputSchema,
    target: targetInputSchema,
    listActivity: activityRequestSchema,
  },
  explorer: {
    listOperations: operationQuerySchema,
    countOperations: rangeSchema,
    listHookDeliveries: deliveryQuerySchema,
    listExtractionJobs: jobListRequestSchema,
    metrics: metricsSchema,
  },
  costs: {
    recordFinanceEvent: financeInputSchema,
    listCostEvents: costQuerySchema,
    listFinanceEvents: financeQuerySchema,
    summarize: costSummaryRequestSchema,
  },
} as const;
