export { type GetVisionInput, getVision, type Vision } from './get.ts';
