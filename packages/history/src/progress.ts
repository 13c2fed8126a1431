// The port lives with the topic reads that report through it; history keeps its names.
export { NO_PROGRESS, type Progress, type StartProgress } from '@tickertape/clients';
