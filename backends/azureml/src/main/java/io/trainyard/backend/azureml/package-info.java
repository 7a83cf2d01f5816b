/** Azure Machine Learning command jobs through the ARM REST API (issue 18). */
package io.trainyard.backend.azureml;
